import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Writes a large multi-file OpenAPI 3.0 spec in the style of a big cloud provider's public description: one file
 * per path item, per schema, per shared parameter and response, relative `$ref`s, `x-codeSamples` that refer to
 * example files (some of them Markdown pages that were never written), patterns valid only without the `u` flag
 * (`^[a-zA-Z0-9_\-\:]+$`), and formats no validator knows (`cidr`, `uint64`, `iso-country-code`, `uriref`).
 *
 * With the defaults: 65 resource groups of 10 operations (650 operations) in about 2,900 files. Deterministic:
 * the same options write the same files. Returns the root file's path and the counts.
 */
export interface LargeSpecOptions {
  /** Folder to write into (emptied first). */
  dir: string;
  /** Resource groups; each has 10 operations over 5 path items. Default 65. */
  groups?: number;
  /**
   * Also write the Markdown pages the `x-` extensions refer to (by default some are missing, as in specs whose
   * documentation pages live elsewhere). Prism refuses to start while one is missing.
   */
  docPages?: boolean;
}

export interface LargeSpec {
  root: string;
  files: number;
  operations: number;
  /** A path that answers a plain GET with the default key, for time-to-first-answer (`/v2/droplets-0`). */
  probePath: string;
}

const GROUP_NAMES = ['droplets', 'volumes', 'images', 'domains', 'firewalls', 'databases', 'registries', 'clusters', 'buckets', 'certificates', 'snapshots', 'networks', 'balancers'];

/** Writes the spec (see {@link LargeSpecOptions}); the folder holds nothing else afterwards. */
export function writeLargeSpec(options: LargeSpecOptions): LargeSpec {
  const dir = resolve(options.dir);
  const groups = options.groups ?? 65;
  rmSync(dir, { recursive: true, force: true });
  let files = 0;
  const write = (path: string, value: unknown): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    // JSON is YAML: the files keep the `.yml` names such specs use, and no YAML writer is needed.
    writeFileSync(join(dir, path), typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
    files++;
  };

  writeShared(write);
  const paths: Record<string, { $ref: string }> = {};
  const tags: { name: string; description: unknown }[] = [];
  for (let index = 0; index < groups; index++) {
    const name = `${GROUP_NAMES[index % GROUP_NAMES.length]!}-${Math.floor(index / GROUP_NAMES.length)}`;
    tags.push({ name, description: { $ref: `resources/${name}/README.md` } });
    Object.assign(paths, writeGroup(write, name, index, options.docPages === true));
  }
  write('openapi.yml', {
    openapi: '3.0.0',
    info: { title: 'Large Cloud API', version: '2.0', description: { $ref: 'description.md' } },
    servers: [{ url: 'https://api.cloud.example.com', description: 'production' }],
    tags,
    paths,
    components: { securitySchemes: { bearer_auth: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer_auth: [] }],
  });
  return { root: join(dir, 'openapi.yml'), files, operations: groups * 10, probePath: `/v2/${GROUP_NAMES[0]!}-0` };
}

type Write = (path: string, value: unknown) => void;

function writeShared(write: Write): void {
  const error = (description: string) => ({ description, headers: { 'ratelimit-limit': { $ref: '../headers/ratelimit-limit.yml' } }, content: { 'application/json': { schema: { $ref: '../models/error.yml' } } } });
  write('shared/headers/ratelimit-limit.yml', { description: 'Requests allowed per hour.', schema: { type: 'integer', example: 5000 } });
  write('shared/models/error.yml', {
    type: 'object',
    required: ['id', 'message'],
    properties: {
      id: { type: 'string', description: 'A short identifier of the error.', example: 'not_found' },
      message: { type: 'string', example: 'The resource you were accessing could not be found.' },
      request_id: { type: 'string', format: 'uuid' },
    },
  });
  write('shared/models/links.yml', { type: 'object', properties: { pages: { type: 'object', properties: { next: { type: 'string', format: 'uri' }, prev: { type: 'string', format: 'uri' } } } } });
  write('shared/models/meta.yml', { type: 'object', required: ['total'], properties: { total: { type: 'integer', minimum: 0 } } });
  write('shared/models/tag-name.yml', { type: 'string', maxLength: 255, pattern: '^[a-zA-Z0-9_\\-\\:]+$', example: 'env:prod' });
  write('shared/models/region.yml', { type: 'string', enum: ['nyc1', 'sfo3', 'ams3', 'fra1', 'sgp1'], example: 'nyc1' });
  write('shared/models/ip-range.yml', { type: 'string', format: 'cidr', example: '10.0.0.0/16' });
  write('shared/parameters/per-page.yml', { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 20 } });
  write('shared/parameters/page.yml', { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
  write('shared/parameters/tag-name.yml', { name: 'tag_name', in: 'query', required: false, schema: { $ref: '../models/tag-name.yml' } });
  write('shared/responses/unauthorized.yml', error('Authentication failed.'));
  write('shared/responses/not-found.yml', error('The resource was not found.'));
  write('shared/responses/too-many-requests.yml', error('Too many requests.'));
  write('shared/responses/server-error.yml', error('Server error.'));
  write('shared/responses/unexpected-error.yml', error('Unexpected error.'));
  write('shared/responses/no-content.yml', { description: 'The action was successful; the response has no body.' });
  write('description.md', '# Large Cloud API\n\nAn introduction for documentation tools.\n');
}

/** One resource group: 5 path items, 10 operations, and their models, parameters, responses and examples. */
function writeGroup(write: Write, name: string, index: number, docPages: boolean): Record<string, { $ref: string }> {
  const base = `resources/${name}`;
  const model = name.replace(/-/g, '_');
  // Every file of a group sits in a folder of it (`resources/<group>/models/…`): the shared files are three levels up.
  const shared = (file: string): { $ref: string } => ({ $ref: `../../../shared/${file}` });
  const local = (file: string): { $ref: string } => ({ $ref: file });
  const errors = { '401': shared('responses/unauthorized.yml'), '429': shared('responses/too-many-requests.yml'), '500': shared('responses/server-error.yml'), default: shared('responses/unexpected-error.yml') };
  const notFound = { '404': shared('responses/not-found.yml') };
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

  // Models: the record, its create and update bodies, and the parts they share, one file each.
  write(`${base}/models/${model}-id.yml`, { type: 'integer', format: 'int64', readOnly: true, example: 3164444 });
  write(`${base}/models/${model}-name.yml`, { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_\\-\\:.]+$', example: `${model}-01` });
  write(`${base}/models/${model}-status.yml`, { type: 'string', enum: ['new', 'active', 'off', 'archive'], example: 'active' });
  write(`${base}/models/${model}-size.yml`, { type: 'integer', format: 'uint64', minimum: 1, maximum: 16384, example: 25 });
  write(`${base}/models/${model}-settings.yml`, {
    type: 'object',
    properties: { backups: { type: 'boolean', default: false }, country: { type: 'string', format: 'iso-country-code', example: 'NL' }, homepage: { type: 'string', format: 'uriref', example: '/docs' } },
    'x-docs': { $ref: `../docs/${model}-settings.md` },
  });
  if (docPages) write(`${base}/docs/${model}-settings.md`, `# Settings of ${name}\n`);
  write(`${base}/models/${model}-create.yml`, {
    type: 'object',
    required: ['name', 'region'],
    properties: {
      name: local(`${model}-name.yml`),
      region: shared('models/region.yml'),
      size: local(`${model}-size.yml`),
      ip_range: shared('models/ip-range.yml'),
      tags: { type: 'array', maxItems: 10, uniqueItems: true, items: shared('models/tag-name.yml') },
      settings: local(`${model}-settings.yml`),
    },
  });
  write(`${base}/models/${model}-update.yml`, { type: 'object', properties: { name: local(`${model}-name.yml`), size: local(`${model}-size.yml`), settings: local(`${model}-settings.yml`) } });
  write(`${base}/models/${model}.yml`, {
    allOf: [
      local(`${model}-create.yml`),
      {
        type: 'object',
        required: ['id', 'status', 'created_at'],
        properties: { id: local(`${model}-id.yml`), status: local(`${model}-status.yml`), created_at: { type: 'string', format: 'date-time', readOnly: true } },
      },
    ],
  });
  write(`${base}/models/action.yml`, {
    type: 'object',
    properties: { id: { type: 'integer', example: 36804636 }, type: { type: 'string', example: 'resize' }, status: { type: 'string', enum: ['in-progress', 'completed', 'errored'] }, started_at: { type: 'string', format: 'date-time' } },
  });
  write(`${base}/models/action-request.yml`, { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['resize', 'rename', 'snapshot', 'power_off'] } } });

  // Parameters.
  write(`${base}/parameters/${model}-id.yml`, { name: `${model}_id`, in: 'path', required: true, schema: { type: 'integer', minimum: 1 }, example: 3164444 });
  write(`${base}/parameters/action-id.yml`, { name: 'action_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  write(`${base}/parameters/status.yml`, { name: 'status', in: 'query', required: false, schema: local(`../models/${model}-status.yml`) });

  // Responses, one file each.
  write(`${base}/responses/all-${model}.yml`, {
    description: `A JSON object with a key of \`${model}\`.`,
    headers: { 'ratelimit-limit': shared('headers/ratelimit-limit.yml') },
    ...json({ allOf: [{ type: 'object', properties: { [model]: { type: 'array', items: local(`../models/${model}.yml`) } } }, { type: 'object', properties: { links: shared('models/links.yml'), meta: shared('models/meta.yml') } }] }),
  });
  write(`${base}/responses/existing-${model}.yml`, { description: 'The record.', ...json({ type: 'object', properties: { [model]: local(`../models/${model}.yml`) } }) });
  write(`${base}/responses/new-${model}.yml`, { description: 'Created.', ...json({ type: 'object', properties: { [model]: local(`../models/${model}.yml`) } }) });
  write(`${base}/responses/all-actions.yml`, { description: 'The actions.', ...json({ type: 'object', properties: { actions: { type: 'array', items: local('../models/action.yml') }, links: shared('models/links.yml'), meta: shared('models/meta.yml') } }) });
  write(`${base}/responses/action.yml`, { description: 'The action.', ...json({ type: 'object', properties: { action: local('../models/action.yml') } }) });

  // Operations: examples in one file per language (`.md` pages for one operation in three, never written).
  const operation = (id: string, fields: Record<string, unknown>): Record<string, unknown> => {
    write(`${base}/examples/curl/${id}.yml`, { lang: 'cURL', source: `curl -X GET -H "Authorization: Bearer $TOKEN" "https://api.cloud.example.com/v2/${name}"` });
    write(`${base}/examples/python/${id}.yml`, { lang: 'Python', source: `import client\nclient.${model}.${id}()` });
    const samples: unknown[] = [{ $ref: `../examples/curl/${id}.yml` }, { $ref: `../examples/python/${id}.yml` }];
    if ((id.length + index) % 3 === 0) {
      samples.push({ $ref: `../examples/go/${id}.md` });
      if (docPages) write(`${base}/examples/go/${id}.md`, `client.${model}.${id}()\n`);
    }
    return { operationId: `${model}_${id}`, summary: `${id} ${name}`, tags: [name], ...fields, 'x-codeSamples': samples };
  };
  const idParam = local(`../parameters/${model}-id.yml`);
  const collection = {
    get: operation('list', { parameters: [shared('parameters/per-page.yml'), shared('parameters/page.yml'), local('../parameters/status.yml'), shared('parameters/tag-name.yml')], responses: { '200': local(`../responses/all-${model}.yml`), ...errors } }),
    post: operation('create', { requestBody: { required: true, ...json(local(`../models/${model}-create.yml`)) }, responses: { '201': local(`../responses/new-${model}.yml`), ...errors } }),
  };
  const item = {
    parameters: [idParam],
    get: operation('get', { responses: { '200': local(`../responses/existing-${model}.yml`), ...notFound, ...errors } }),
    put: operation('replace', { requestBody: { required: true, ...json(local(`../models/${model}-create.yml`)) }, responses: { '200': local(`../responses/existing-${model}.yml`), ...notFound, ...errors } }),
    patch: operation('update', { requestBody: { required: true, ...json(local(`../models/${model}-update.yml`)) }, responses: { '200': local(`../responses/existing-${model}.yml`), ...notFound, ...errors } }),
    delete: operation('delete', { responses: { '204': shared('responses/no-content.yml'), ...notFound, ...errors } }),
  };
  const actions = {
    get: operation('list_actions', { parameters: [idParam, shared('parameters/per-page.yml'), shared('parameters/page.yml')], responses: { '200': local('../responses/all-actions.yml'), ...notFound, ...errors } }),
    post: operation('post_action', { parameters: [idParam], requestBody: { required: true, ...json(local('../models/action-request.yml')) }, responses: { '201': local('../responses/action.yml'), ...notFound, ...errors } }),
  };
  const action = { get: operation('get_action', { parameters: [idParam, local('../parameters/action-id.yml')], responses: { '200': local('../responses/action.yml'), ...notFound, ...errors } }) };
  const history = { get: operation('history', { parameters: [idParam, shared('parameters/per-page.yml')], responses: { '200': local('../responses/all-actions.yml'), ...notFound, ...errors } }) };

  write(`${base}/README.md`, `# ${name}\n\nA page for documentation tools (the root's \`tags\` refer to it).\n`);
  write(`${base}/paths/collection.yml`, collection);
  write(`${base}/paths/item.yml`, item);
  write(`${base}/paths/actions.yml`, actions);
  write(`${base}/paths/action.yml`, action);
  write(`${base}/paths/history.yml`, history);
  const at = `/v2/${name}`;
  const ref = (file: string): { $ref: string } => ({ $ref: `${base}/paths/${file}.yml` });
  return {
    [at]: ref('collection'),
    [`${at}/{${model}_id}`]: ref('item'),
    [`${at}/{${model}_id}/actions`]: ref('actions'),
    [`${at}/{${model}_id}/actions/{action_id}`]: ref('action'),
    [`${at}/{${model}_id}/history`]: ref('history'),
  };
}

// `node dist/bench/large-spec.js DIR [GROUPS]` writes the spec into DIR.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, groups] = process.argv.slice(2);
  if (dir === undefined) {
    process.stderr.write('usage: node dist/bench/large-spec.js DIR [GROUPS]\n');
    process.exit(2);
  }
  const spec = writeLargeSpec({ dir, ...(groups === undefined ? {} : { groups: Number(groups) }) });
  process.stdout.write(`${spec.root}: ${spec.operations} operations in ${spec.files} files\n`);
}
