import fc from 'fast-check';
import { exactJson } from '../contract.js';
import { ordinaryName, petStatus } from './new-pet.js';

/**
 * A request body `createPet` must refuse with 400 (seed, createPet rule 1; Errors: "missing required fields or
 * holds invalid values"). `text` is the raw body; `marker` is a name or categoryId unique to this body, so the
 * suite can look for a pet created by mistake; `kind` says what is wrong, for the report.
 */
export interface InvalidBody {
  kind: string;
  text: string;
  marker: { name: string } | { categoryId: bigint } | undefined;
}

/** A fresh marker: a name and a categoryId no other request of this run uses. */
const markers = fc.tuple(ordinaryName, fc.bigInt({ min: 10n ** 15n, max: 10n ** 17n })).map(([name, categoryId]) => ({ name: `conformance ${name} ${categoryId}`, categoryId }));

/** Bodies missing `name`, `categoryId` or both (seed, createPet rule 1). */
export const missingRequiredField: fc.Arbitrary<InvalidBody> = fc
  .tuple(markers, fc.option(petStatus, { nil: undefined }), fc.constantFrom('name', 'categoryId', 'both'))
  .map(([marker, status, missing]) => {
    const body: Record<string, unknown> = { name: marker.name, categoryId: marker.categoryId, ...(status === undefined ? {} : { status }) };
    if (missing !== 'categoryId') delete body['name'];
    if (missing !== 'name') delete body['categoryId'];
    const kept = missing === 'name' ? { categoryId: marker.categoryId } : missing === 'categoryId' ? { name: marker.name } : undefined;
    return { kind: `without ${missing === 'both' ? 'name and categoryId' : missing}`, text: exactJson(body), marker: kept };
  });

/** Values of the wrong type or outside the allowed set, per field (seed, Resources › NewPet, PetStatus). */
const WRONG_VALUES: Record<'name' | 'categoryId' | 'status', readonly unknown[]> = {
  name: [42, null, true, ['Rex'], { first: 'Rex' }],
  categoryId: ['12', '', 1.5, -0.25, null, true, [1], { id: 1 }, 'NaN'],
  status: ['lost', 'AVAILABLE', 'Available', '', null, 1, ['sold'], { value: 'sold' }],
};

/** Integers just outside int64 and beyond, written as exact literals. */
const OUT_OF_INT64 = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e400', '-1e400', '99999999999999999999999999'];

/** Bodies with one field of the wrong type, outside the enum, or outside int64. */
export const invalidValue: fc.Arbitrary<InvalidBody> = fc.oneof(
  fc.tuple(markers, fc.constantFrom('name', 'categoryId', 'status') as fc.Arbitrary<'name' | 'categoryId' | 'status'>, fc.nat()).map(([marker, field, pick]) => {
    const wrong = WRONG_VALUES[field][pick % WRONG_VALUES[field].length];
    const body: Record<string, unknown> = { name: marker.name, categoryId: marker.categoryId, [field]: wrong };
    return { kind: `${field} = ${JSON.stringify(wrong)}`, text: exactJson(body), marker: field === 'name' ? { categoryId: marker.categoryId } : { name: marker.name } };
  }),
  fc.tuple(markers, fc.constantFrom(...OUT_OF_INT64)).map(([marker, literal]) => ({
    kind: `categoryId = ${literal} (outside int64)`,
    text: `{"name":${JSON.stringify(marker.name)},"categoryId":${literal}}`,
    marker: { name: marker.name },
  })),
);

/** Bodies that are JSON but not an object, that are not JSON at all, or empty. */
export const notAnObject: fc.Arbitrary<InvalidBody> = fc.oneof(
  fc.constantFrom('[]', '[{"name":"Rex","categoryId":1}]', '"Rex"', '42', 'null', 'true').map((text) => ({ kind: `JSON ${text}`, text, marker: undefined })),
  markers.chain((marker) => {
    const valid = `{"name":${JSON.stringify(marker.name)},"categoryId":${marker.categoryId}}`;
    return fc
      .constantFrom(
        valid.slice(0, -1),
        valid.slice(0, valid.length >> 1),
        `${valid}}`,
        `${valid} x`,
        valid.replaceAll('"', "'"),
        `{name:${JSON.stringify(marker.name)},categoryId:${marker.categoryId}}`,
        `{"name":${JSON.stringify(marker.name)},"categoryId":NaN}`,
        `{"name":${JSON.stringify(marker.name)},"categoryId":0x10}`,
        `{"name":${JSON.stringify(marker.name)},,"categoryId":1}`,
      )
      .map((text) => ({ kind: `malformed JSON ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`, text, marker: { name: marker.name } }));
  }),
  fc.constantFrom('', ' ', '\n').map((text) => ({ kind: `empty body ${JSON.stringify(text)}`, text, marker: undefined })),
);
