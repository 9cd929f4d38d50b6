import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';

/**
 * Writes one large single-file OpenAPI 3.1 document in the *shape* of a big AI service's public description
 * (every name and word here is ours): resource groups with list/create/retrieve/modify/delete/cancel and a
 * nested list (`POST` to an item modifies it, as such services do), a conversation `Item` union that recurses
 * through `oneOf` with a discriminator and through a long chain of item kinds (each kind's `children` name the
 * next kind, so that a resolved, cycle-cut schema is still a hundred levels deep), a filter that contains
 * itself through `anyOf`, a JSON-Schema-like `Parameters` that contains itself through `additionalProperties`
 * and `items`, request bodies with a `stream: true` member, several answers documented as
 * `text/event-stream` beside `application/json`, and operations that document only their 200 (the mock may
 * answer 400 and 401 they do not document).
 *
 * With the defaults: 278 operations, about 80,000 lines of YAML. Deterministic: the same options write the
 * same bytes.
 */
export interface AiSpecOptions {
  /** Resource groups; each has 7 operations. Default 38 (plus 12 model-call operations: 278). */
  groups?: number;
  /** Item kinds chained in the recursive `Item` union. Default 40. */
  kinds?: number;
  /** Described properties of each group's record (the bulk of the lines). Default 90. */
  fields?: number;
}

/** What {@link aiSpec} built: the document, its counts, and paths a probe can call. */
export interface AiSpec {
  document: Record<string, unknown>;
  operations: number;
  /** Operations documenting a `text/event-stream` answer. */
  streams: number;
  /** A `GET` answered with the default key, below the server's base path: `/v1/models`. */
  probePath: string;
}

const GROUP_WORDS = ['agents', 'sessions', 'notes', 'jobs', 'uploads', 'stores', 'batches', 'tunings', 'reviews', 'projects', 'members', 'invites', 'keys', 'certs', 'audits', 'prompts', 'datasets', 'graders', 'runs', 'containers'];
const FIELD_WORDS = ['label', 'summary', 'owner', 'region', 'status', 'priority', 'weight', 'quota', 'usage', 'origin', 'channel', 'revision', 'language', 'format', 'score', 'tier'];

/** The document as an object (see {@link AiSpecOptions}). */
export function aiSpec(options: AiSpecOptions = {}): AiSpec {
  const groups = options.groups ?? 38;
  const kinds = options.kinds ?? 40;
  const fields = options.fields ?? 90;
  const schemas: Record<string, unknown> = { ...sharedSchemas(kinds) };
  const paths: Record<string, Record<string, unknown>> = {};
  let operations = 0;
  let streams = 0;
  const add = (path: string, method: string, operation: Record<string, unknown>): void => {
    (paths[path] ??= {})[method] = operation;
    operations++;
    const ok = (operation['responses'] as Record<string, { content?: Record<string, unknown> }>)['200'];
    if (ok?.content?.['text/event-stream'] !== undefined) streams++;
  };
  for (const [path, method, operation] of modelCalls()) add(path, method, operation);
  for (let index = 0; index < groups; index++) {
    const word = `${GROUP_WORDS[index % GROUP_WORDS.length]!}${index < GROUP_WORDS.length ? '' : `_${Math.floor(index / GROUP_WORDS.length)}`}`;
    Object.assign(schemas, groupSchemas(word, index, fields));
    for (const [path, method, operation] of groupOperations(word, index)) add(path, method, operation);
  }
  const document = {
    openapi: '3.1.0',
    info: { title: 'Large Model API', version: '2.3.0', description: 'A generated description in the shape of a large AI service, for start-up measurements.' },
    servers: [{ url: 'https://api.model.example.com/v1' }],
    security: [{ BearerAuth: [] }],
    paths,
    components: { securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer' } }, schemas },
  };
  return { document, operations, streams, probePath: '/v1/models' };
}

/** Writes {@link aiSpec} as YAML to `file`; returns its counts and its number of lines. */
export function writeAiSpec(file: string, options: AiSpecOptions = {}): Omit<AiSpec, 'document'> & { file: string; lines: number } {
  const { document, ...counts } = aiSpec(options);
  const text = yaml.dump(document, { noRefs: true, lineWidth: 120 });
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, text);
  return { ...counts, file: resolve(file), lines: text.split('\n').length - 1 };
}

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown): Record<string, unknown> => ({ 'application/json': { schema } });
const ok = (description: string, content: Record<string, unknown>): Record<string, unknown> => ({ '200': { description, content } });

/** The schemas every group shares: the recursive `Item` union, the filter, `Parameters`, metadata, errors. */
function sharedSchemas(kinds: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const mapping: Record<string, string> = {};
  for (let k = 0; k < kinds; k++) {
    const type = `kind_${k}`;
    mapping[type] = `#/components/schemas/ItemKind${k}`;
    out[`ItemKind${k}`] = {
      type: 'object',
      description: `An item of kind ${k} in a conversation.`,
      required: ['type', 'id'],
      properties: {
        type: { type: 'string', const: type, description: 'The kind of the item.' },
        id: { type: 'string', description: 'The identifier of the item.' },
        text: { type: ['string', 'null'], maxLength: 4096 },
        content: { type: 'array', items: ref('ContentPart'), description: 'Parts of the item.' },
        // Each kind names the next one directly: a cycle-cut resolution of `Item` stays as deep as the chain.
        ...(k + 1 < kinds ? { children: { type: 'array', items: ref(`ItemKind${k + 1}`), description: 'Items nested under this one.' } } : {}),
        related: { anyOf: [ref('Item'), { type: 'null' }] },
      },
    };
  }
  out['Item'] = { oneOf: Object.keys(mapping).map((type) => ref(`ItemKind${type.slice(5)}`)), discriminator: { propertyName: 'type', mapping } };
  out['ContentPart'] = {
    oneOf: [
      { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: { type: 'string' }, notes: { type: 'array', items: ref('Annotation') } } },
      { type: 'object', required: ['type', 'url'], properties: { type: { const: 'image' }, url: { type: 'string', format: 'uri' }, detail: { enum: ['low', 'high', 'auto'] } } },
      { type: 'object', required: ['type', 'items'], properties: { type: { const: 'nested' }, items: { type: 'array', items: ref('Item') } } },
    ],
    discriminator: { propertyName: 'type' },
  };
  out['Annotation'] = { oneOf: [{ type: 'object', required: ['kind'], properties: { kind: { const: 'cite' }, source: ref('ContentPart') } }, { type: 'object', required: ['kind'], properties: { kind: { const: 'link' }, href: { type: 'string' } } }] };
  out['Filter'] = {
    anyOf: [
      { type: 'object', required: ['key', 'op', 'value'], properties: { key: { type: 'string' }, op: { enum: ['eq', 'ne', 'gt', 'lt'] }, value: { type: ['string', 'number', 'boolean'] } } },
      { type: 'object', required: ['join', 'filters'], properties: { join: { enum: ['and', 'or'] }, filters: { type: 'array', items: ref('Filter') } } },
    ],
  };
  out['Parameters'] = {
    type: 'object',
    description: 'A JSON-Schema-like description of a tool\'s arguments.',
    properties: { type: { type: 'string' }, properties: { type: 'object', additionalProperties: ref('Parameters') }, items: ref('Parameters'), anyOf: { type: 'array', items: ref('Parameters') } },
  };
  out['Tool'] = {
    oneOf: [
      { type: 'object', required: ['type', 'name'], properties: { type: { const: 'function' }, name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' }, parameters: ref('Parameters'), strict: { type: ['boolean', 'null'] } } },
      { type: 'object', required: ['type'], properties: { type: { const: 'search' }, filters: ref('Filter'), max_results: { type: 'integer', minimum: 1, maximum: 50 } } },
    ],
  };
  out['Metadata'] = { type: ['object', 'null'], maxProperties: 16, additionalProperties: { type: 'string', maxLength: 512 } };
  out['Usage'] = { type: 'object', required: ['input_tokens', 'output_tokens'], properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } } };
  out['ErrorResponse'] = { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['message', 'type'], properties: { message: { type: 'string' }, type: { type: 'string' }, param: { type: ['string', 'null'] }, code: { type: ['string', 'null'] } } } } };
  out['Message'] = {
    oneOf: ['system', 'user', 'assistant', 'tool'].map((role) => ({
      type: 'object',
      required: ['role', 'content'],
      properties: { role: { const: role }, content: { oneOf: [{ type: 'string' }, { type: 'array', items: ref('ContentPart') }] }, name: { type: 'string' }, ...(role === 'assistant' ? { calls: { type: 'array', items: ref('Item') } } : {}) },
    })),
    discriminator: { propertyName: 'role' },
  };
  out['Completion'] = { type: 'object', required: ['id', 'object', 'created', 'model', 'choices'], properties: { id: { type: 'string' }, object: { const: 'completion' }, created: { type: 'integer' }, model: { type: 'string' }, choices: { type: 'array', items: { type: 'object', required: ['index', 'message'], properties: { index: { type: 'integer' }, message: ref('Message'), finish: { enum: ['stop', 'length', 'tool'] } } } }, output: { type: 'array', items: ref('Item') }, usage: ref('Usage') } };
  out['CompletionChunk'] = { type: 'object', required: ['id', 'object', 'delta'], properties: { id: { type: 'string' }, object: { const: 'completion.chunk' }, delta: { type: 'object', properties: { content: { type: ['string', 'null'] }, item: ref('Item') } } } };
  out['ModelCallRequest'] = {
    type: 'object',
    required: ['model', 'messages'],
    properties: {
      model: { type: 'string', examples: ['model-large-1'] },
      messages: { type: 'array', minItems: 1, items: ref('Message') },
      input: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('Item') }] },
      tools: { type: 'array', items: ref('Tool') },
      stream: { type: ['boolean', 'null'], default: false, description: 'When true, the answer is sent as server-sent events.' },
      temperature: { type: ['number', 'null'], minimum: 0, maximum: 2, default: 1 },
      max_tokens: { type: ['integer', 'null'], minimum: 1 },
      metadata: ref('Metadata'),
    },
  };
  return out;
}

/** The model-call operations (12): completions, responses, embeddings, media; seven of them stream. */
function modelCalls(): [string, string, Record<string, unknown>][] {
  const streaming = (id: string, description: string): Record<string, unknown> => ({
    operationId: id,
    summary: description,
    requestBody: { required: true, content: json(ref('ModelCallRequest')) },
    responses: ok('The completion, or a stream of chunks when `stream` is true.', { ...json(ref('Completion')), 'text/event-stream': { schema: ref('CompletionChunk') } }),
  });
  const plain = (id: string, request: unknown, answer: unknown): Record<string, unknown> => ({ operationId: id, requestBody: { required: true, content: json(request) }, responses: ok('The result.', json(answer)) });
  return [
    ['/chat/completions', 'post', streaming('createChatCompletion', 'Completes a conversation.')],
    ['/completions', 'post', streaming('createCompletion', 'Completes a prompt.')],
    ['/responses', 'post', streaming('createResponse', 'Makes a response.')],
    ['/sessions/runs', 'post', streaming('createSessionAndRun', 'Starts a session and runs it.')],
    ['/sessions/{session_id}/runs', 'post', { ...streaming('createRun', 'Runs a session.'), parameters: [pathParam('session_id')] }],
    ['/sessions/{session_id}/runs/{run_id}/outputs', 'post', { ...streaming('submitOutputs', 'Gives a run the outputs of its tools.'), parameters: [pathParam('session_id'), pathParam('run_id')] }],
    ['/audio/speech', 'post', { operationId: 'createSpeech', requestBody: { required: true, content: json({ type: 'object', required: ['input'], properties: { input: { type: 'string', maxLength: 4096 }, stream: { type: 'boolean' } } }) }, responses: ok('The audio.', { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } }, 'text/event-stream': { schema: { type: 'object', properties: { audio: { type: 'string', format: 'byte' } } } } }) }],
    ['/embeddings', 'post', plain('createEmbedding', { type: 'object', required: ['input', 'model'], properties: { input: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, model: { type: 'string' } } }, { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { embedding: { type: 'array', items: { type: 'number' } } } } } } })],
    ['/moderations', 'post', plain('createModeration', { type: 'object', required: ['input'], properties: { input: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('ContentPart') }] } } }, { type: 'object', properties: { flagged: { type: 'boolean' } } })],
    ['/images/generations', 'post', plain('createImage', { type: 'object', required: ['prompt'], properties: { prompt: { type: 'string' }, n: { type: 'integer', minimum: 1, maximum: 10 } } }, { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } } } })],
    ['/models', 'get', { operationId: 'listModels', responses: ok('The models.', json({ type: 'object', required: ['object', 'data'], properties: { object: { const: 'list' }, data: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, owned_by: { type: 'string' } } } } } })) }],
    ['/models/{model}', 'get', { operationId: 'retrieveModel', parameters: [pathParam('model')], responses: { ...ok('The model.', json({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, owned_by: { type: 'string' } } })), '404': { description: 'No such model.', content: json(ref('ErrorResponse')) } } }],
  ];
}

function pathParam(name: string): Record<string, unknown> {
  return { name, in: 'path', required: true, schema: { type: 'string' }, description: `The identifier of the ${name.replace(/_id$/, '')}.` };
}

/** One group's record, its create and modify bodies, its list and deletion answers. */
function groupSchemas(word: string, index: number, fields: number): Record<string, unknown> {
  const name = pascal(word);
  const own: Record<string, unknown> = {};
  for (let f = 0; f < fields; f++) {
    const field = `${FIELD_WORDS[f % FIELD_WORDS.length]!}${f < FIELD_WORDS.length ? '' : `_${Math.floor(f / FIELD_WORDS.length)}`}`;
    const kinds = [
      { type: 'string', maxLength: 256, description: `The ${field} of the ${word} record, as its owner set it.` },
      { type: ['integer', 'null'], minimum: 0, description: `The ${field} of the ${word} record, counted in whole units.` },
      { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium', description: `How much ${field} the ${word} record has.` },
      { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 32, description: `Each ${field} of the ${word} record.` },
      { type: 'object', properties: { value: { type: 'number' }, unit: { type: 'string' } }, description: `The ${field} of the ${word} record with its unit.` },
    ];
    own[field] = kinds[(f + index) % kinds.length];
  }
  return {
    [name]: {
      type: 'object',
      description: `A ${word} record.`,
      required: ['id', 'object', 'created_at'],
      properties: {
        id: { type: 'string', description: `The identifier of the ${word} record.`, examples: [`${word}_abc123`] },
        object: { type: 'string', const: word },
        created_at: { type: 'integer', description: 'When the record was made, in seconds since the epoch.' },
        metadata: ref('Metadata'),
        tools: { type: 'array', items: ref('Tool'), maxItems: 128 },
        ...(index % 3 === 0 ? { last_item: { anyOf: [ref('Item'), { type: 'null' }] } } : {}),
        ...own,
      },
    },
    [`Create${name}Request`]: {
      type: 'object',
      required: ['label'],
      properties: { label: { type: 'string', maxLength: 256 }, metadata: ref('Metadata'), tools: { type: 'array', items: ref('Tool') }, ...(index % 4 === 0 ? { filter: ref('Filter') } : {}), ...own },
    },
    [`Modify${name}Request`]: { type: 'object', properties: { label: { type: 'string', maxLength: 256 }, metadata: ref('Metadata'), ...own } },
    [`List${name}Response`]: { type: 'object', required: ['object', 'data', 'has_more'], properties: { object: { const: 'list' }, data: { type: 'array', items: ref(name) }, first_id: { type: 'string' }, last_id: { type: 'string' }, has_more: { type: 'boolean' } } },
    [`Delete${name}Response`]: { type: 'object', required: ['id', 'object', 'deleted'], properties: { id: { type: 'string' }, object: { const: `${word}.deleted` }, deleted: { type: 'boolean' } } },
  };
}

/** One group's 7 operations: list, create, retrieve, modify (`POST` to the item), delete, cancel, a nested list. */
function groupOperations(word: string, index: number): [string, string, Record<string, unknown>][] {
  const name = pascal(word);
  const id = `${word.replace(/s(_\d+)?$/, '$1')}_id`;
  const item = `/${word}/{${id}}`;
  const paging = [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'How many records a page holds.' },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } },
    { name: 'after', in: 'query', schema: { type: 'string' }, description: 'A cursor: the last identifier of the previous page.' },
  ];
  const notFound = index % 5 === 0 ? { '404': { description: 'No such record.', content: json(ref('ErrorResponse')) } } : {};
  return [
    [`/${word}`, 'get', { operationId: `list${name}`, tags: [word], parameters: paging, responses: ok('A page of records.', json(ref(`List${name}Response`))) }],
    [`/${word}`, 'post', { operationId: `create${name}`, tags: [word], requestBody: { required: true, content: json(ref(`Create${name}Request`)) }, responses: ok('The record made.', json(ref(name))) }],
    [item, 'get', { operationId: `retrieve${name}`, tags: [word], parameters: [pathParam(id)], responses: { ...ok('The record.', json(ref(name))), ...notFound } }],
    [item, 'post', { operationId: `modify${name}`, tags: [word], parameters: [pathParam(id)], requestBody: { required: true, content: json(ref(`Modify${name}Request`)) }, responses: { ...ok('The record changed.', json(ref(name))), ...notFound } }],
    [item, 'delete', { operationId: `delete${name}`, tags: [word], parameters: [pathParam(id)], responses: { ...ok('The record deleted.', json(ref(`Delete${name}Response`))), ...notFound } }],
    [`${item}/cancel`, 'post', { operationId: `cancel${name}`, tags: [word], parameters: [pathParam(id)], responses: ok('The record cancelled.', json(ref(name))) }],
    [`${item}/items`, 'get', { operationId: `list${name}Items`, tags: [word], parameters: [pathParam(id), ...paging], responses: ok('The items of the record.', json({ type: 'object', required: ['object', 'data'], properties: { object: { const: 'list' }, data: { type: 'array', items: ref('Item') }, has_more: { type: 'boolean' } } })) }],
  ];
}

function pascal(word: string): string {
  return word.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

// `node dist/bench/ai-spec.js FILE [GROUPS]` writes the spec into FILE.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, groups] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: node dist/bench/ai-spec.js FILE [GROUPS]\n');
    process.exit(2);
  }
  const spec = writeAiSpec(file, groups === undefined ? {} : { groups: Number(groups) });
  process.stdout.write(`${spec.file}: ${spec.operations} operations (${spec.streams} streaming), ${spec.lines} lines\n`);
}
