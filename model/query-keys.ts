/**
 * Path keys whose query part holds templates (`/rides?page={page}&per_page={per_page}`,
 * `/current/airquality?lat={lat}&lon={lon}`; spec/DECISIONS.md › D941). A client sends what follows `?` as the query
 * string, never as part of the path: each `name={template}` pair is a query parameter, the one the operation declares
 * under the template's name, moved from the path to the query under the pair's name (optional text where it declares
 * none). Fixed pairs (`?view=status`) stay in the key, which routes a request carrying them to that operation (D250).
 */

/** One `name=value` pair of a path key's query part: `template` names the `{…}` value, else `value` is fixed. */
export interface QueryPair {
  name: string;
  template?: string | undefined;
  value?: string | undefined;
}

/**
 * A route (the key as given, its fragment already taken off, D133) read for its query templates: the key with its
 * template pairs taken out (`/rides?page={page}` → `/rides`; `/b?view=status&x={x}` → `/b?view=status`) and those
 * pairs, in order. A key without a template pair is returned as it is, with none.
 */
export function splitQueryKey(route: string): { path: string; templates: QueryPair[] } {
  const at = route.indexOf('?');
  if (at === -1 || !route.includes('{', at)) return { path: route, templates: [] };
  const fixed: string[] = [];
  const templates: QueryPair[] = [];
  for (const part of route.slice(at + 1).split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const template = equals === -1 ? undefined : /^\{([^}]+)\}$/.exec(part.slice(equals + 1))?.[1];
    if (template === undefined) fixed.push(part);
    else templates.push({ name: decoded(part.slice(0, equals)), template });
  }
  return { path: fixed.length === 0 ? route.slice(0, at) : `${route.slice(0, at)}?${fixed.join('&')}`, templates };
}

/**
 * The parameters of an operation whose key held the query `templates` (D941), from its own and its path item's
 * parameter lists as written: a parameter declared `in: path` whose name a template gives is `in: query` under the
 * pair's name (required unless it says otherwise); a template no parameter declares is an optional text query
 * parameter, since the operation never says it needs it (a create beside the list at `/rides?page={page}`). Other
 * parameters are kept. The lists given are not changed.
 */
export function queryKeyParameters(templates: readonly QueryPair[], own: readonly Record<string, unknown>[], shared: readonly Record<string, unknown>[]): { own: Record<string, unknown>[]; shared: Record<string, unknown>[] } {
  if (templates.length === 0) return { own: [...own], shared: [...shared] };
  const moved = (p: Record<string, unknown>): Record<string, unknown> => {
    const pair = p['in'] === 'path' ? templates.find((one) => one.template === p['name']) : undefined;
    return pair === undefined ? p : { ...p, in: 'query', name: pair.name, required: p['required'] !== false };
  };
  const ownMoved = own.map(moved);
  const sharedMoved = shared.map(moved);
  const declared = (name: string): boolean => [...ownMoved, ...sharedMoved].some((p) => p['in'] === 'query' && p['name'] === name);
  const added: Record<string, unknown>[] = [];
  for (const pair of templates) {
    if (!declared(pair.name) && !added.some((p) => p['name'] === pair.name)) added.push({ name: pair.name, in: 'query', required: false, schema: { type: 'string' } });
  }
  return { own: [...ownMoved, ...added], shared: sharedMoved };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
