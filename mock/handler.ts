import type { OperationModel, ResourceModel } from '../model/model.js';
import type { ErrorCode } from './errors.js';
import type { UploadedFile } from './forms.js';
import type { AnyRecordStore, Maybe } from './store/record-store.js';
import type { StoreBelow } from './cascade.js';

/**
 * The shape of the state logic of one operation, shared by the handlers of every role (handlers.ts) and the list
 * handler (list-handler.ts).
 */

/**
 * What a handler receives once the request has been routed, authenticated and validated against the spec:
 * parameters already coerced (int64 as `bigint`, other integers as `number`), the body as parsed exactly.
 */
export interface OperationInput {
  /** The store of the operation's resource (in memory, or over the network); `undefined` for an operation no resource holds. */
  store: AnyRecordStore | undefined;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
  /** The file parts of a multipart body (name, size, media type), in the order sent; absent for any other body (D151). */
  files?: readonly UploadedFile[] | undefined;
  /** The media type the pipeline negotiated for the success answer (`Accept`), when the success documents a body. */
  mediaType?: string | undefined;
  /** The request's path and query as sent (`/v1/pets?page=2`): lists link their other pages with it. */
  url?: string;
  /** The request's `Host` header, for links whose schema asks for an absolute URI. */
  host?: string | undefined;
  /** The store of the parent resource, for a sub-resource's operation (spec/DECISIONS.md › D53). */
  parentStore?: AnyRecordStore | undefined;
  /** For a write of a sub-collection's members, the store of the collection it copies named members from (spec/DECISIONS.md › D294). */
  sourceStore?: AnyRecordStore | undefined;
  /** For a delete, the stores of the resources living below the record's (spec/DECISIONS.md › D292): what lived under it goes too. */
  below?: readonly StoreBelow[] | undefined;
  /** The stores of the sibling resources sharing a numbered resource's numbers under one parent (D240), by resource name. */
  siblingStores?: ReadonlyMap<string, AnyRecordStore> | undefined;
  /** The store of a resource by its name: a create's references to records the mock holds are looked up there (D252). */
  storeOf?: ((resource: string) => AnyRecordStore | undefined) | undefined;
}

/**
 * A handler's answer: a status with a JSON text body (empty for none) and headers beside the operation's own
 * (`Location` of a create), or a row of the error table; `code` replaces the row's name in the body
 * (`PET_NOT_FOUND` for the row `RECORD_NOT_FOUND` of `pets`).
 */
export type OperationResult =
  | {
      status: number;
      json: string;
      /** Another media type than the success's JSON one, with its text in `json` or its `bytes`. */
      mediaType?: string;
      bytes?: Buffer;
      /** Headers the answer adds (a list's `Link`, `X-Total-Count`; a create's `Location`). */
      headers?: Record<string, string>;
    }
  | { error: ErrorCode; detail?: string; code?: string };

/**
 * The state logic of one operation. Validation has already happened. The answer is there at once with the
 * in-memory store, and a promise with a store over the network (README › Several replicas).
 */
export type Handler = (input: OperationInput) => Maybe<OperationResult>;

/** What a handler needs of the whole spec: the base path (for `Location`) and the resources (a sub-resource's parent). */
export interface HandlerContext {
  basePath: string;
  resources: readonly ResourceModel[];
  /** Every operation of the spec: a create's references to served data are looked up among them (D95). */
  operations?: readonly OperationModel[];
}
