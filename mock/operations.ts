import { loadModel, SPEC_PATH } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';

export { PACKAGE_ROOT, SPEC_PATH } from '../model/loader.js';

/** The interface as the mock serves it: the model of model/model.ts, which the conformance suite reads too. */
export type Api = ApiModel;

/** One operation of the served spec (model/model.ts › OperationModel). */
export type Operation = OperationModel;

/**
 * Reads a spec into the model the mock serves (`--spec`, default spec/openapi.yaml), with the OpenAPI Overlay
 * files `overlays` (`--overlay`) applied first. Errors: rejects with a
 * message naming the file and what is wrong with it (see `loadModel`).
 */
export async function loadApi(specPath: string = SPEC_PATH, overlays: readonly string[] = []): Promise<Api> {
  return loadModel(specPath, { overlays });
}
