import type { FilterModel, ListModel, ResourceModel } from '../../model/model.js';
import { mainType, objectShape, type Schema } from '../../model/schema.js';
import { ordinaryBody, withProperty } from '../arbitraries/body.js';
import { filterText } from '../arbitraries/query-strings.js';
import { filterStranger } from '../../judge/record-rules.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import { idOf, type Check } from './check.js';
import { createRecord, recordsOf, successStatuses } from './records.js';
import { sameJson } from '../../model/json.js';
import type { CheckContext } from '../check-context.js';

/**
 * A sub-path view's equality filters with listed values (`GET /plant/findByStatus?status=sold`), as a property
 * (spec/DECISIONS.md › D91): the check creates one record per value, then asks the view for each value: every
 * listed record has that value, and the record created with it is listed (when the page is not full); then the
 * view without the parameter, where its schema states a default (D173).
 */
export function viewFilterCheck(resource: ResourceModel, view: ListModel, id: string, rule: string): Check {
  const filters = view.filters.filter((filter) => (filter.match ?? 'equal') === 'equal' && (filter.values?.length ?? 0) > 0);
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const op = view.operation;
      for (const filter of filters) {
        const made = new Map<string, unknown>();
        for (const [index, value] of filter.values!.entries()) {
          const body = withProperty(create, ordinaryBody(context, create, context.target.integers, 60 + index), filter.property, value);
          const created = body === undefined ? undefined : await createRecord(context, resource, body);
          if (created !== undefined) made.set(idOf(resource, created), value);
        }
        for (const value of filter.values!) {
          const query = new URLSearchParams({ [filter.parameter.name]: filterText(value) });
          if (view.limit?.maximum !== undefined) query.set(view.limit.parameter, String(view.limit.maximum));
          const { exchange, body } = await context.call(op, requestOf(context, op, { query: query.toString() }), successStatuses(op));
          const records = recordsOf(resource, body);
          const stranger = filterStranger(records, filter.property, value);
          if (stranger !== undefined) throw new Violation(`${op.operationId}?${filter.parameter.name}=${filterText(value)}: ${stranger.message}`, exchange);
          if (view.limit?.maximum !== undefined && records.length >= view.limit.maximum) continue;
          const listed = new Set(records.map((record) => idOf(resource, record)));
          const left = [...made].find(([madeId, madeValue]) => madeValue === value && !listed.has(madeId));
          if (left !== undefined) throw new Violation(`${op.operationId}?${filter.parameter.name}=${filterText(value)} leaves out ${resource.name} ${left[0]}, created with ${filter.property} ${filterText(value)}`, exchange);
        }
        await askDefault(context, resource, view, filter, made);
      }
    },
  };
}

/**
 * The filter's documented `default` (D173): asked without the parameter, the view applies the default the
 * parameter's schema states, so every listed record has it and the record created with it is listed (when the page
 * is not full). Nothing is asked when the schema states no default (or one that is not a listed value), or when the
 * view has another required parameter.
 */
async function askDefault(context: CheckContext, resource: ResourceModel, view: ListModel, filter: FilterModel, made: ReadonlyMap<string, unknown>): Promise<void> {
  const op = view.operation;
  const stated = filter.parameter.schema['default'];
  const fallback = Array.isArray(stated) && stated.length === 1 ? stated[0] : stated;
  if (fallback === undefined || !filter.values!.some((value) => sameJson(value, fallback))) return;
  if (op.queryParams.some((parameter) => parameter.required && parameter.name !== filter.parameter.name)) return;
  const query = new URLSearchParams();
  if (view.limit?.maximum !== undefined) query.set(view.limit.parameter, String(view.limit.maximum));
  const { exchange, body } = await context.call(op, requestOf(context, op, { query: query.toString() }), successStatuses(op));
  const records = recordsOf(resource, body);
  const stranger = filterStranger(records, filter.property, fallback);
  if (stranger !== undefined) throw new Violation(`${op.operationId} without ${filter.parameter.name} (its documented default: ${filterText(fallback)}): ${stranger.message}`, exchange);
  if (view.limit?.maximum !== undefined && records.length >= view.limit.maximum) return;
  const listed = new Set(records.map((record) => idOf(resource, record)));
  const left = [...made].find(([madeId, madeValue]) => sameJson(madeValue, fallback) && !listed.has(madeId));
  if (left !== undefined) throw new Violation(`${op.operationId} without ${filter.parameter.name} (its documented default: ${filterText(fallback)}) leaves out ${resource.name} ${left[0]}, created with ${filter.property} ${filterText(fallback)}`, exchange);
}

/**
 * The members of an array property's items a text filter value may be compared with: `[undefined]` when the items
 * are texts themselves, the names of the items' plain text members when they are objects (a tag's `name`), else
 * none. Texts with a `format`, `pattern` or `enum` are left out: a made-up word would not be valid there.
 */
function textMembers(property: Schema | undefined): (string | undefined)[] {
  const items = property?.['items'];
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return [];
  const fits = (bound: unknown, ok: (n: number) => boolean): boolean => typeof bound !== 'number' || ok(bound);
  const plain = (schema: Schema): boolean =>
    mainType(schema) === 'string' && schema['format'] === undefined && schema['pattern'] === undefined && schema['enum'] === undefined && fits(schema['maxLength'], (n) => n >= 16) && fits(schema['minLength'], (n) => n <= 8);
  if (plain(items as Schema)) return [undefined];
  const shape = objectShape(items as Schema);
  const names = Object.entries(shape.properties).flatMap(([name, schema]) => (plain(schema) && schema['readOnly'] !== true ? [name] : []));
  // An item must be valid with only these members: one that requires another member is not tried.
  return shape.required.every((name) => names.includes(name)) ? names : [];
}

/** Whether one of a record's items of `property` is `word` itself or has it as one of its scalar members. */
function holdsWord(record: Record<string, unknown>, property: string, word: string): boolean {
  const held = record[property];
  return Array.isArray(held) && held.some((item) => item === word || (typeof item === 'object' && item !== null && Object.values(item).includes(word)));
}

/**
 * A sub-path view's filter on an array of texts or of objects with a text member (`GET /plant/findByTags?tags=x`,
 * whose records hold `tags: [{id, name}]`), as a property (spec/DECISIONS.md › D115): the check creates a record
 * whose second item carries a word no other record holds and one whose items carry another, then asks the view for
 * the first word: every listed record has an item holding it (as itself or as one of its scalar members, since the
 * spec does not say which member a filter value names), and the first record is listed (when the page is not full).
 */
export function viewItemFilterCheck(resource: ResourceModel, view: ListModel, filter: FilterModel, members: readonly (string | undefined)[], id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const op = view.operation;
      const stamp = Date.now().toString(36);
      const words = [`w${stamp}a`, `w${stamp}b`, `w${stamp}c`];
      const item = (word: string): unknown => (members[0] === undefined ? word : Object.fromEntries(members.map((name) => [name, word])));
      const made: string[] = [];
      for (const [index, items] of [[words[2]!, words[0]!], [words[1]!]].entries()) {
        const body = withProperty(create, ordinaryBody(context, create, context.target.integers, 70 + index), filter.property, items.map(item));
        const created = body === undefined ? undefined : await createRecord(context, resource, body);
        if (created === undefined) return;
        made.push(idOf(resource, created));
      }
      const query = new URLSearchParams({ [filter.parameter.name]: words[0]! });
      if (view.limit?.maximum !== undefined) query.set(view.limit.parameter, String(view.limit.maximum));
      const { exchange, body } = await context.call(op, requestOf(context, op, { query: query.toString() }), successStatuses(op));
      const records = recordsOf(resource, body);
      const stranger = records.findIndex((record) => !holdsWord(record, filter.property, words[0]!));
      if (stranger !== -1) throw new Violation(`${op.operationId}?${query.toString()}: item ${stranger} (${resource.idProperty} ${idOf(resource, records[stranger]!)}) holds no ${filter.property} item ${words[0]}`, exchange);
      if (view.limit?.maximum !== undefined && records.length >= view.limit.maximum) return;
      if (!records.some((record) => idOf(resource, record) === made[0])) throw new Violation(`${op.operationId}?${query.toString()} leaves out ${resource.name} ${made[0]}, created with a ${filter.property} item ${words[0]}`, exchange);
    },
  };
}

/**
 * The view filter checks of a resource: one per sub-path view with an equality filter whose values the spec lists,
 * and one per view filter on an array property whose items are texts or hold a plain text member.
 */
export function viewChecks(resource: ResourceModel, where: (view: ListModel) => string): Check[] {
  if (resource.operations.create === undefined) return [];
  const views = resource.views.filter((view) => view.operation.method === 'GET');
  const valued = views
    .filter((view) => view.filters.some((filter) => (filter.match ?? 'equal') === 'equal' && (filter.values?.length ?? 0) > 0))
    .map((view) => {
      const names = view.filters.map((filter) => `\`${filter.parameter.name}\``).join(', ');
      return viewFilterCheck(resource, view, `${view.operation.operationId}.filter`, `${where(view)}: for each listed value of ${names}, every record the view lists has it, and a record created with it is listed${view.filters.some((filter) => filter.parameter.schema['default'] !== undefined) ? '; without the parameter, its documented default applies' : ''}.`);
    });
  const itemFilters = views.flatMap((view) =>
    view.filters.flatMap((filter, index) => {
      const members = filter.match === 'overlap' || filter.match === 'contains' ? textMembers(resource.properties[filter.property]) : [];
      if (members.length === 0 || mainType((filter.parameter.type === 'array' ? filter.parameter.schema['items'] : filter.parameter.schema) as Schema) !== 'string') return [];
      return [viewItemFilterCheck(resource, view, filter, members, `${view.operation.operationId}.item-filter${index === 0 ? '' : `-${filter.parameter.name}`}`, `${where(view)}: \`${filter.parameter.name}\` names an item of \`${filter.property}\`; every record the view lists for a word holds an item with it, and a record created with it is listed.`)];
    }),
  );
  return [...valued, ...itemFilters];
}
