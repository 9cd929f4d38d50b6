import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { stringify, type LosslessNumber } from 'lossless-json';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { PetRecord } from '../spec/exact.js';
import { exactInteger, parseJsonBody } from '../mock/json.js';
import { describe, SPEC_PATH } from '../mock/operations.js';
import type { Exchange } from './client.js';

/** The operations of the seed, by operationId. */
export type OperationId = 'listPets' | 'createPet' | 'getPet';

/**
 * The response side of the spec, as the suite reads it: documented statuses per operation and a compiled
 * validator per (operation, status), plus the `Error` schema for statuses the seed leaves open.
 */
export interface Contract {
  documented: Record<OperationId, number[]>;
  validators: Map<string, ValidateFunction>;
  errorValidator: ValidateFunction;
}

/** A broken rule, with the exchange that shows it. Thrown by properties; formatted by the report. */
export class Violation extends Error {
  constructor(
    readonly problem: string,
    readonly exchange?: Exchange,
  ) {
    super(problem);
    this.name = 'Violation';
  }
}

/** Loads the spec once and compiles every response schema. Errors: rejects when the spec is invalid. */
export async function loadContract(specPath: string = SPEC_PATH): Promise<Contract> {
  const document = (await SwaggerParser.dereference(specPath)) as OpenAPIV3_1.Document;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addFormat('int64', true);
  const documented = {} as Record<OperationId, number[]>;
  const validators = new Map<string, ValidateFunction>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of [item?.get, item?.post]) {
      if (op?.operationId === undefined) continue;
      const id = op.operationId as OperationId;
      documented[id] = [];
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        documented[id].push(Number(status));
        const schema = (response as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema;
        if (schema !== undefined) validators.set(`${id} ${status}`, ajv.compile(schema));
      }
    }
  }
  const errorSchema = document.components?.schemas?.['Error'];
  if (errorSchema === undefined) throw new Error('spec: components.schemas.Error is missing');
  return { documented, validators, errorValidator: ajv.compile(errorSchema) };
}

/**
 * Checks one response against the contract and returns its body parsed exactly (int64 as `LosslessNumber`).
 * - The status must be one of `expected` (the statuses the rule allows here); a 5xx is always a violation.
 * - `Content-Type` must be `application/json` (parameters such as `charset` allowed) (seed, What the service does).
 * - The body must be JSON, valid against the schema of its status when documented for the operation, and an
 *   `Error` otherwise; integers declared int64 must lie in int64; `Error.status` must equal the HTTP status.
 * Errors: throws a {@link Violation} naming the first broken rule, carrying the exchange.
 */
export function expectResponse(contract: Contract, exchange: Exchange, operationId: OperationId, expected: readonly number[]): unknown {
  const { status, headers, text } = exchange.response;
  if (status >= 500) throw new Violation(`server error ${status} (never acceptable for a valid or invalid request)`, exchange);
  if (!expected.includes(status)) throw new Violation(`expected status ${expected.join(' or ')}, got ${status}`, exchange);
  const mediaType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new Violation(`expected Content-Type application/json, got ${JSON.stringify(headers['content-type'] ?? '(none)')}`, exchange);
  }
  const parsed = parseJsonBody(text);
  if (!parsed.ok) throw new Violation(`the body is not JSON: ${parsed.message}`, exchange);
  const { value, view, overflows } = parsed.body;
  const isDocumented = contract.documented[operationId].includes(status);
  const validate = isDocumented ? contract.validators.get(`${operationId} ${status}`) : contract.errorValidator;
  if (validate !== undefined && !validate(view)) {
    throw new Violation(`the ${status} body does not match the spec's ${isDocumented ? 'schema for this status' : 'Error schema'}: ${describe(validate.errors, 'body')}`, exchange);
  }
  if (overflows.length > 0) throw new Violation(`${overflows.map((p) => `body${p}`).join(', ')} is outside the int64 range`, exchange);
  if (status >= 400) {
    const errorStatus = (view as { status: unknown }).status;
    if (errorStatus !== status) throw new Violation(`Error.status is ${JSON.stringify(errorStatus)} but the HTTP status is ${status}`, exchange);
  }
  return value;
}

/** A `Pet` of a validated response body, with int64 fields exact. */
export function toPet(value: unknown): PetRecord {
  const raw = value as { id: LosslessNumber; name: string; categoryId: LosslessNumber; status?: PetRecord['status'] };
  return {
    id: exactInteger(raw.id.value)!,
    name: raw.name,
    categoryId: exactInteger(raw.categoryId.value)!,
    ...(raw.status === undefined ? {} : { status: raw.status }),
  };
}

/** Exact JSON text of a value whose integers may be `bigint` (request bodies with int64 fields). */
export function exactJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
