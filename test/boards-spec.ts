import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small description for keys unique under their parent (spec/DECISIONS.md › D290-D294), used by the in-memory
 * and the Redis tests: boards hold tags named by the client and cards, whose tags are added, set, cleared and removed
 * by name; spaces are keyed by their slug, hold tags, and the tags hold notes. Written to a temporary file by
 * {@link writeBoardsSpec}.
 */
const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (schema: object) => ({ description: 'ok', content: json(schema) });
const missing = { description: 'missing', content: json({ $ref: '#/components/schemas/Error' }) };
const param = (name: string, type = 'string') => ({ name, in: 'path', required: true, schema: { type } });
const tagList = { type: 'array', items: { $ref: '#/components/schemas/Tag' } };
const names = { type: 'object', required: ['tags'], properties: { tags: { type: 'array', items: { type: 'string' } } } };
/** The description itself, as a JSON value (OpenAPI 3.1, base path `/api`, no security). */
export const BOARDS_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Boards', version: '1' },
  servers: [{ url: '/api' }],
  components: {
    schemas: {
      Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      Board: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } } },
      Card: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } } },
      Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } } },
      Space: { type: 'object', required: ['slug'], properties: { slug: { type: 'string' }, title: { type: 'string' } } },
      Tag: { type: 'object', required: ['name', 'color'], properties: { name: { type: 'string', maxLength: 20 }, color: { type: 'string', default: 'grey' } } },
    },
  },
  paths: {
    '/boards': {
      post: { operationId: 'createBoard', requestBody: { required: true, content: json({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } }) }, responses: { '201': ok({ $ref: '#/components/schemas/Board' }) } },
    },
    '/boards/{board_id}': {
      parameters: [param('board_id', 'integer')],
      get: { operationId: 'getBoard', responses: { '200': ok({ $ref: '#/components/schemas/Board' }), '404': missing } },
      delete: { operationId: 'deleteBoard', responses: { '204': { description: 'gone' }, '404': missing } },
    },
    '/boards/{board_id}/tags': {
      parameters: [param('board_id', 'integer')],
      get: { operationId: 'listTags', responses: { '200': ok(tagList), '404': missing } },
      post: { operationId: 'createTag', requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 }, color: { type: 'string' } } }) }, responses: { '201': ok({ $ref: '#/components/schemas/Tag' }), '404': missing, '409': missing } },
    },
    '/boards/{board_id}/tags/{name}': {
      parameters: [param('board_id', 'integer'), param('name')],
      get: { operationId: 'getTag', responses: { '200': ok({ $ref: '#/components/schemas/Tag' }), '404': missing } },
      delete: { operationId: 'deleteTag', responses: { '204': { description: 'gone' }, '404': missing } },
    },
    '/spaces': {
      post: { operationId: 'createSpace', requestBody: { required: true, content: json({ $ref: '#/components/schemas/Space' }) }, responses: { '201': ok({ $ref: '#/components/schemas/Space' }), '409': missing } },
    },
    '/spaces/{slug}': {
      parameters: [param('slug')],
      get: { operationId: 'getSpace', responses: { '200': ok({ $ref: '#/components/schemas/Space' }), '404': missing } },
      delete: { operationId: 'deleteSpace', responses: { '204': { description: 'gone' }, '404': missing } },
    },
    '/spaces/{slug}/tags': {
      parameters: [param('slug')],
      get: { operationId: 'listSpaceTags', responses: { '200': ok(tagList), '404': missing } },
      post: { operationId: 'createSpaceTag', requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, color: { type: 'string' } } }) }, responses: { '201': ok({ $ref: '#/components/schemas/Tag' }), '404': missing, '409': missing } },
    },
    '/spaces/{slug}/tags/{name}': {
      parameters: [param('slug'), param('name')],
      get: { operationId: 'getSpaceTag', responses: { '200': ok({ $ref: '#/components/schemas/Tag' }), '404': missing } },
    },
    '/spaces/{slug}/tags/{name}/notes': {
      parameters: [param('slug'), param('name')],
      get: { operationId: 'listTagNotes', responses: { '200': ok({ type: 'array', items: { $ref: '#/components/schemas/Note' } }), '404': missing } },
      post: { operationId: 'createTagNote', requestBody: { required: true, content: json({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } }) }, responses: { '201': ok({ $ref: '#/components/schemas/Note' }), '404': missing } },
    },
    '/spaces/{slug}/tags/{name}/notes/{note_id}': {
      parameters: [param('slug'), param('name'), param('note_id', 'integer')],
      get: { operationId: 'getTagNote', responses: { '200': ok({ $ref: '#/components/schemas/Note' }), '404': missing } },
    },
    '/boards/{board_id}/cards': {
      parameters: [param('board_id', 'integer')],
      post: { operationId: 'createCard', requestBody: { required: true, content: json({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } }) }, responses: { '201': ok({ $ref: '#/components/schemas/Card' }), '404': missing } },
    },
    '/boards/{board_id}/cards/{card_id}': {
      parameters: [param('board_id', 'integer'), param('card_id', 'integer')],
      get: { operationId: 'getCard', responses: { '200': ok({ $ref: '#/components/schemas/Card' }), '404': missing } },
    },
    '/boards/{board_id}/cards/{card_id}/tags': {
      parameters: [param('board_id', 'integer'), param('card_id', 'integer')],
      get: { operationId: 'listCardTags', responses: { '200': ok(tagList), '404': missing } },
      post: { operationId: 'addCardTags', requestBody: { required: true, content: json(names) }, responses: { '200': ok(tagList), '404': missing } },
      put: { operationId: 'setCardTags', requestBody: { required: true, content: json(names) }, responses: { '200': ok(tagList), '404': missing } },
      delete: { operationId: 'clearCardTags', responses: { '204': { description: 'cleared' }, '404': missing } },
    },
    '/boards/{board_id}/cards/{card_id}/tags/{name}': {
      parameters: [param('board_id', 'integer'), param('card_id', 'integer'), param('name')],
      delete: { operationId: 'removeCardTag', responses: { '200': ok(tagList), '404': missing } },
    },
  },
};

/** Writes {@link BOARDS_SPEC} to a fresh temporary folder; `remove` deletes it. */
export function writeBoardsSpec(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'member-writes-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(BOARDS_SPEC));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
