import type { ApiModel, OperationModel } from '../model/model.js';
import { queryPairs } from './query.js';

/**
 * An operation whose path key carries a query (`/things?preview=true`): the part before `?` as a pattern on the
 * whole path (base path included), and the name=value pairs a request's query must hold to be routed to it.
 */
interface FixedQueryRoute {
  op: OperationModel;
  pattern: RegExp;
  pairs: readonly (readonly [string, string])[];
  /** The names the key held as templates (D941): the request's query must hold each, with any value. */
  names: readonly string[];
}

/**
 * Finds, for a request's method, path (base path included, not decoded) and query text, the operation whose path key
 * names that path and a query the request carries (spec/DECISIONS.md › D250), with the path's template segments in
 * `pathParams` order; `undefined` when none does. OpenAPI path keys hold no query, but a description may still
 * write one to tell apart two operations of one path (a preview of an endpoint beside the endpoint): a request
 * carrying it is meant for that operation, its schemas and its answers, not for the plain one. A key's query
 * templates (`/current/airquality?lat={lat}&lon={lon}`, D941) route the same way by the names the query holds.
 */
export type FixedQueryRouter = (method: string, pathname: string, search: string) => { op: OperationModel; segments: readonly string[] } | undefined;

/** Compiles the {@link FixedQueryRouter} of a model once; `undefined` when no path key carries a query. */
export function fixedQueryRouter(api: ApiModel): FixedQueryRouter | undefined {
  const routes: FixedQueryRoute[] = [];
  for (const op of api.operations) {
    const names = op.keyQuery ?? [];
    const at = op.path.indexOf('?');
    if (at === -1 && names.length === 0) continue;
    const flat = at === -1 ? [] : queryPairs(op.path.slice(at + 1));
    const pairs: [string, string][] = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
    if (pairs.length === 0 && names.length === 0) continue;
    const template = `${api.basePath}${at === -1 ? op.path : op.path.slice(0, at)}`;
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`);
    routes.push({ op, pattern, pairs, names });
  }
  if (routes.length === 0) return undefined;
  // The routes with more pairs first: the most specific key wins when one query holds both.
  routes.sort((a, b) => b.pairs.length + b.names.length - (a.pairs.length + a.names.length));
  return (method, pathname, search) => {
    if (search === '') return undefined;
    let sent: string[] | undefined;
    for (const route of routes) {
      if (route.op.method !== method) continue;
      const match = route.pattern.exec(pathname);
      if (match === null) continue;
      sent ??= queryPairs(search);
      const given = sent;
      const holds = (name: string, value?: string): boolean => given.some((item, i) => i % 2 === 0 && item === name && (value === undefined || given[i + 1] === value));
      if (route.pairs.every(([name, value]) => holds(name, value)) && route.names.every((name) => holds(name))) return { op: route.op, segments: match.slice(1) };
    }
    return undefined;
  };
}
