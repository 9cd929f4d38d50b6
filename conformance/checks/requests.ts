import fc from 'fast-check';
import type { OperationModel, ParameterModel, ResourceModel } from '../../model/model.js';
import { bodyForm, bodyValues } from '../arbitraries/body.js';
import { markerProperties, markerValue, type Marker } from '../arbitraries/invalid-body.js';
import { validValues } from '../arbitraries/schema-values.js';
import { filterText, pageSizeNear, queryText, validLimit } from '../arbitraries/query-strings.js';
import { requestOf } from '../context.js';
import { admittedTypes } from '../../model/schema.js';
import type { CheckContext, RequestSpec } from '../check-context.js';
import { idOf } from './check.js';
import { listRecords } from './records.js';

/** A valid request of an operation, and the marker its body carries when it would create a record. */
export interface SampleRequest {
  request: RequestSpec;
  marker?: Marker;
}

/** A schema-valid value of a parameter, drawn with ordinary strings and safe integers. */
function drawnValue(parameter: ParameterModel, seed: number): unknown {
  return fc.sample(validValues(parameter.schema, parameter.validate, { integers: 'safe', strings: 'ordinary' }), { numRuns: 1, seed })[0];
}

/** A drawn value ({@link drawnValue}) that is no empty array, where one of eight seeds gives one: an empty array sends no pair, which a server reads as the required parameter missing. */
function nonEmptyDraw(parameter: ParameterModel, seed: number): unknown {
  let value: unknown;
  for (let attempt = 0; attempt < 8; attempt++) {
    value = drawnValue(parameter, seed + attempt * 1_000);
    if (!Array.isArray(value) || value.length > 0) return value;
  }
  return value;
}

/** A path parameter's value as text: a drawn value ({@link drawnValue}); `1` where the draw is no scalar. */
function parameterValue(parameter: ParameterModel, seed: number): string {
  const value = drawnValue(parameter, seed);
  return filterText(value !== null && typeof value === 'object' ? '1' : (value ?? '1'));
}

/**
 * The required query parameters of `op` as text, each a drawn value; an array is sent as its style says (one pair
 * per item, or its items joined by the parameter's delimiter), so `uuid` of `format: uuid` items gets uuids; an
 * object parameter (a deepObject) is left to the request's own completion ({@link requestOf} adds it member by
 * member, D326), since one text cannot hold it.
 */
function requiredQueryText(op: OperationModel): string {
  return op.queryParams
    .filter((p) => p.required && p.deepObject !== true && !admittedTypes(p.schema).includes('object'))
    .map((p, i) => {
      const value = nonEmptyDraw(p, 100 + i);
      const name = encodeURIComponent(p.name);
      if (!Array.isArray(value)) return `${name}=${encodeURIComponent(filterText(value !== null && typeof value === 'object' ? '1' : (value ?? '1')))}`;
      const items = value.map((item) => filterText(item !== null && typeof item === 'object' ? JSON.stringify(item) : item));
      return p.delimiter === undefined ? items.map((item) => `${name}=${encodeURIComponent(item)}`).join('&') : `${name}=${encodeURIComponent(items.join(p.delimiter))}`;
    })
    .filter((pair) => pair !== '')
    .join('&');
}

/** Ids of records the target holds (from the first page of the list), or `['1']` when it lists none. */
async function existingIds(context: CheckContext, resource: ResourceModel): Promise<string[]> {
  if (resource.operations.list === undefined || !isGettable(resource.operations.list)) return ['1'];
  const { records } = await listRecords(context, resource, resource.limit === undefined ? '' : `${encodeURIComponent(resource.limit.parameter)}=${pageSizeNear(resource.limit, 5)}`);
  return records.length === 0 ? ['1'] : records.map((record) => idOf(resource, record));
}

function isGettable(op: OperationModel): boolean {
  return op.method === 'GET';
}

/**
 * Valid requests of `op` (the checks of any operation of any spec): for a resource's list, queries with
 * a page size or a filter; for its create, a valid body with a marker (so a record created by a refused request
 * can be found); for its item operations, ids the target holds; for any other operation, schema-valid path and
 * required query parameters and body. `markerRun` keeps markers apart between checks.
 */
export async function sampleRequests(context: CheckContext, op: OperationModel, markerRun: number, detached = false): Promise<fc.Arbitrary<SampleRequest>> {
  const resource = op.resource;
  if (detached) return detachedRequests(context, op);
  if (resource !== undefined && op.role === 'list') {
    const queries: fc.Arbitrary<string>[] = [fc.constant('')];
    if (resource.limit !== undefined) queries.push(validLimit(resource.limit).map((limit) => queryText(resource.limit, { limit, filter: undefined })));
    for (const model of resource.filters) if (model.values !== undefined && model.values.length > 0) queries.push(fc.constantFrom(...model.values).map((value) => queryText(undefined, { limit: undefined, filter: { model, value } })));
    return fc.oneof(...queries).map((query) => ({ request: requestOf(context, op, { query }) }));
  }
  const body = op.body === undefined ? fc.constant(undefined) : bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' });
  if (resource !== undefined && op.role === 'create') {
    const form = bodyForm(op);
    const property = markerProperties(form)[0];
    return fc.tuple(body, fc.nat()).map(([value, n]) => {
      const marker = property === undefined ? undefined : { property, value: markerValue(form, property, markerRun, n % 1_000_000) };
      const sent = marker === undefined ? value : { ...value, [marker.property]: marker.value };
      return { request: requestOf(context, op, { value: sent }), ...(marker === undefined ? {} : { marker }) };
    });
  }
  const ids = resource !== undefined && resource.idParameter !== undefined ? await existingIds(context, resource) : [];
  const fixed: Record<string, string> = Object.fromEntries(op.pathParams.map((p, i) => [p.name, p.name === resource?.idParameter && ids.length > 0 ? ids[0]! : parameterValue(p, i + 1)]));
  const query = requiredQueryText(op);
  const id = ids.length === 0 ? fc.constant(undefined) : fc.constantFrom(...ids);
  return fc.tuple(id, body).map(([value, sent]) => ({
    request: requestOf(context, op, { path: value === undefined ? fixed : { ...fixed, [resource!.idParameter!]: value }, query, ...(sent === undefined ? {} : { value: sent }) }),
  }));
}

/** Whether calling `op` can change what the target holds (anything but GET, HEAD, OPTIONS and 3.2's safe QUERY). */
export function writes(op: OperationModel): boolean {
  return !['GET', 'HEAD', 'OPTIONS', 'QUERY'].includes(op.method);
}

/**
 * Valid requests of `op` that name every path value themselves, each drawn from its parameter's schema, and need
 * no record the suite prepared (D164): what an authentication probe sends when the parent of `op`'s records
 * could not be made. Such a path may name no record.
 */
function detachedRequests(context: CheckContext, op: OperationModel): fc.Arbitrary<SampleRequest> {
  const path: Record<string, string> = Object.fromEntries(op.pathParams.map((p, i) => [p.name, parameterValue(p, i + 1)]));
  const query = requiredQueryText(op);
  const body = op.body === undefined ? fc.constant(undefined) : bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' });
  return body.map((sent) => ({ request: requestOf(context, op, { path, query, ...(sent === undefined ? {} : { value: sent }) }) }));
}
