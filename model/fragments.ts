import type { BodyModel, OperationModel } from './model.js';
import type { Schema, Validator } from './schema.js';
import { streamMemberOf } from './streams.js';

/**
 * The route of a path key: the key without its fragment (`/v1/connectors/{id}#id` is served at
 * `/v1/connectors/{id}`; spec/DECISIONS.md › D133). A client never sends a fragment, so it can be no part of a route.
 */
export function routeOf(pathKey: string): string {
  const at = pathKey.indexOf('#');
  return at === -1 ? pathKey : pathKey.slice(0, at);
}

/**
 * Joins the operations that share a method and a route once fragments are dropped (D133), in place: the first one
 * (the key without a fragment when there is one) stays and takes the others' documented answers, so each request
 * is answered as the operation it asks for documents. A stream variant (`POST /chat#stream` answering
 * `text/event-stream`) adds its stream to the same status, asked for by `Accept` or by the boolean body member
 * that asks for a stream (D86); a variant's different body is accepted beside the first's (`anyOf` of both).
 * A variant that adds no media type of its own cannot be told apart and is left out, named in the returned notes.
 * `compileBody` compiles a joined body schema; `pathKeys` gives each operation's key as written.
 */
export function joinFragmentVariants<T extends OperationModel>(operations: T[], pathKeys: ReadonlyMap<T, string>, compileBody: (schema: Schema) => Validator): string[] {
  const notes: string[] = [];
  const groups = new Map<string, T[]>();
  for (const op of operations) {
    // Keys told apart by the query templates they held are routed apart by the query (D941): not joined.
    const key = `${op.method} ${op.path} ${(op.keyQuery ?? []).join('&')}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const leftOut = new Set<T>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const first = group.find((op) => !(pathKeys.get(op) ?? '').includes('#')) ?? group[0]!;
    for (const variant of group) {
      if (variant === first) continue;
      leftOut.add(variant);
      const added = addAnswers(first, variant);
      if (added === 0) {
        notes.push(`${variant.method} ${pathKeys.get(variant) ?? variant.path} (${variant.operationId}) answers no media type ${first.operationId} does not: requests cannot tell them apart, ${first.operationId} serves ${variant.method} ${first.path} (D133)`);
        continue;
      }
      first.body = joinBodies(first.body, variant.body, compileBody);
      if (first.streamMember === undefined && variant.responses.some((r) => /^2/.test(r.status) && r.contents.some((c) => c.stream !== undefined))) {
        first.streamMember = variant.streamMember ?? streamMemberOf(variant.body?.schema);
      }
      notes.push(`${variant.method} ${pathKeys.get(variant) ?? variant.path} (${variant.operationId}) is served at ${variant.method} ${first.path} beside ${first.operationId}, told apart by what the request asks (D133)`);
    }
  }
  for (let at = operations.length - 1; at >= 0; at--) if (leftOut.has(operations[at]!)) operations.splice(at, 1);
  return notes;
}

/** Adds to `first` each media type of `variant`'s responses it does not document under the same status; the number added. */
function addAnswers(first: OperationModel, variant: OperationModel): number {
  let added = 0;
  for (const response of variant.responses) {
    const own = first.responses.find((r) => r.status === response.status);
    if (own === undefined) {
      first.responses.push(response);
      added += response.contents.length;
      continue;
    }
    for (const content of response.contents) {
      if (own.contents.some((c) => c.mediaType.toLowerCase() === content.mediaType.toLowerCase())) continue;
      own.contents.push(content);
      added++;
    }
  }
  return added;
}

/** A body either operation accepts: the one body when they share it (or only one has one), else `anyOf` of both schemas. */
function joinBodies(first: BodyModel | undefined, variant: BodyModel | undefined, compileBody: (schema: Schema) => Validator): BodyModel | undefined {
  if (variant === undefined || first === undefined || variant.schema === first.schema) return first ?? variant;
  const schema: Schema = { anyOf: [first.schema, variant.schema] };
  const deepObjects = [...new Set([...(first.deepObjects ?? []), ...(variant.deepObjects ?? [])])];
  return { required: first.required && variant.required, mediaTypes: [...new Set([...first.mediaTypes, ...variant.mediaTypes])], schema, validate: compileBody(schema), ...(deepObjects.length === 0 ? {} : { deepObjects }) };
}
