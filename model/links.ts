import type { LinkModel, OperationModel } from './model.js';

// Declared links (OpenAPI 3 Link Object, spec/DECISIONS.md › D118): a response says which operation it leads to
// and which of its values fill that operation's parameters. Where a spec declares one, it says what names alone
// can only guess (a board created as `{ "key": … }` feeds `/boards/{boardRef}/cards`).

/** The links of a response object as the document holds it (already dereferenced): each with a target. */
export function linksOf(raw: unknown): LinkModel[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  return Object.entries(raw as Record<string, unknown>).flatMap(([name, link]): LinkModel[] => {
    if (link === null || typeof link !== 'object') return [];
    const value = link as Record<string, unknown>;
    const operationId = typeof value['operationId'] === 'string' ? value['operationId'] : undefined;
    const operationRef = typeof value['operationRef'] === 'string' ? value['operationRef'] : undefined;
    if (operationId === undefined && operationRef === undefined) return [];
    const parameters = value['parameters'] !== null && typeof value['parameters'] === 'object' ? { ...(value['parameters'] as Record<string, unknown>) } : {};
    return [{ name, operationId, operationRef, parameters, ...(value['requestBody'] === undefined ? {} : { requestBody: value['requestBody'] }) }];
  });
}

/**
 * The operation a link leads to among `operations`: by `operationId`, or by an `operationRef` naming this
 * document's `#/paths/<escaped path>/<method>` (a reference to another document is not followed); `undefined`
 * when none matches.
 */
export function linkTarget(link: LinkModel, operations: readonly OperationModel[]): OperationModel | undefined {
  if (link.operationId !== undefined) return operations.find((op) => op.operationId === link.operationId);
  const match = /^#\/paths\/([^/]+)\/([a-z]+)$/i.exec(link.operationRef ?? '');
  if (match === null) return undefined;
  const path = decodeURIComponent(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  const method = match[2]!.toUpperCase();
  return operations.find((op) => op.method === method && (op.path === path || op.path.endsWith(path)));
}

/**
 * Where a runtime expression takes its value (OpenAPI 3, Runtime Expressions): the response's or the request's
 * body at a JSON pointer (`['key']` for `$response.body#/key`), a header, a path or query parameter; `undefined`
 * for a constant or an expression of another kind (`$url`, `$method`, `$statusCode`).
 */
export type ExpressionSource =
  | { from: 'response' | 'request'; part: 'body'; pointer: string[] }
  | { from: 'response' | 'request'; part: 'header'; name: string }
  | { from: 'request'; part: 'path' | 'query'; name: string };

/** The source of a link parameter's expression (see {@link ExpressionSource}). */
export function expressionSource(expression: unknown): ExpressionSource | undefined {
  if (typeof expression !== 'string') return undefined;
  const body = /^\$(response|request)\.body(?:#(.*))?$/.exec(expression);
  if (body !== null) {
    const pointer = (body[2] ?? '').split('/').slice(1).map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
    return { from: body[1] as 'response' | 'request', part: 'body', pointer };
  }
  const header = /^\$(response|request)\.header\.(.+)$/.exec(expression);
  if (header !== null) return { from: header[1] as 'response' | 'request', part: 'header', name: header[2]!.toLowerCase() };
  const parameter = /^\$request\.(path|query)\.(.+)$/.exec(expression);
  if (parameter !== null) return { from: 'request', part: parameter[1] as 'path' | 'query', name: parameter[2]! };
  return undefined;
}

/** A link's expression for `parameter` of its target: the bare name or the name qualified by its place (`path.id`). */
export function linkParameter(link: LinkModel, parameter: string, place: 'path' | 'query' | 'header' | 'cookie'): unknown {
  return link.parameters[`${place}.${parameter}`] ?? link.parameters[parameter];
}

/**
 * The declared links that lead from `producer`'s success answers to `target`, with the expression each gives for
 * `parameter` (a path parameter of `target`); empty when no link of the spec says where it comes from.
 */
export function linksFeeding(producer: OperationModel, target: OperationModel, parameter: string, operations: readonly OperationModel[]): { link: LinkModel; source: ExpressionSource | undefined; expression: unknown }[] {
  return producer.responses
    .filter((response) => response.status.startsWith('2'))
    .flatMap((response) => response.links ?? [])
    .filter((link) => linkTarget(link, operations) === target)
    .flatMap((link) => {
      const expression = linkParameter(link, parameter, 'path');
      return expression === undefined ? [] : [{ link, source: expressionSource(expression), expression }];
    });
}

/** The value at a JSON pointer (as steps) of a JSON value, or `undefined`. */
export function valueAt(value: unknown, pointer: readonly string[]): unknown {
  let current = value;
  for (const step of pointer) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else current = current !== null && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[step] : undefined;
  }
  return current;
}
