import fc from 'fast-check';
import type { PetStatus } from '../../spec/exact.js';
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

/** A name and a categoryId that no other request of the run uses. */
export interface Marker {
  name: string;
  categoryId: bigint;
}

/** Fresh markers, random: a readable name and a categoryId between 10^15 and 10^17. */
export const markers: fc.Arbitrary<Marker> = fc
  .tuple(ordinaryName, fc.bigInt({ min: 10n ** 15n, max: 10n ** 17n }))
  .map(([name, categoryId]) => ({ name: `conformance ${name} ${categoryId}`, categoryId }));

/** Bodies missing `name`, `categoryId` or both (seed, createPet rule 1), with or without a status. */
export function missingFieldBodies(marker: Marker, status: PetStatus | undefined): InvalidBody[] {
  const extra = status === undefined ? {} : { status };
  return [
    { kind: 'without name', text: exactJson({ categoryId: marker.categoryId, ...extra }), marker: { categoryId: marker.categoryId } },
    { kind: 'without categoryId', text: exactJson({ name: marker.name, ...extra }), marker: { name: marker.name } },
    { kind: 'without name and categoryId', text: exactJson({ ...extra }), marker: undefined },
  ];
}

/** Values of the wrong type or outside the allowed set, per field (seed, Resources › NewPet, PetStatus). */
const WRONG_VALUES: Record<'name' | 'categoryId' | 'status', readonly unknown[]> = {
  name: [42, null, true, ['Rex'], { first: 'Rex' }],
  categoryId: ['12', '', 1.5, -0.25, null, true, [1], { id: 1 }, 'NaN'],
  status: ['lost', 'AVAILABLE', 'Available', '', null, 1, ['sold'], { value: 'sold' }],
};

/** Integers just outside int64 and beyond, written as literals. */
const OUT_OF_INT64 = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e400', '-1e400', '99999999999999999999999999'];

/**
 * Every kind of invalid body for one marker: one field of the wrong type or outside the enum, `categoryId`
 * outside int64, JSON that is not an object, text that is not JSON, and empty bodies.
 */
export function invalidBodies(marker: Marker): InvalidBody[] {
  const named = JSON.stringify(marker.name);
  const valid = `{"name":${named},"categoryId":${marker.categoryId}}`;
  const bodies: InvalidBody[] = [];
  for (const [field, values] of Object.entries(WRONG_VALUES)) {
    for (const wrong of values) {
      bodies.push({
        kind: `${field} = ${JSON.stringify(wrong)}`,
        text: exactJson({ name: marker.name, categoryId: marker.categoryId, [field]: wrong }),
        marker: field === 'name' ? { categoryId: marker.categoryId } : { name: marker.name },
      });
    }
  }
  for (const literal of OUT_OF_INT64) {
    bodies.push({ kind: `categoryId = ${literal} (outside int64)`, text: `{"name":${named},"categoryId":${literal}}`, marker: { name: marker.name } });
  }
  for (const text of ['[]', `[${valid}]`, named, '42', 'null', 'true']) bodies.push({ kind: `JSON that is no object: ${text}`, text, marker: undefined });
  const malformed = [
    valid.slice(0, -1),
    valid.slice(0, valid.length >> 1),
    `${valid}}`,
    `${valid} x`,
    valid.replaceAll('"', "'"),
    `{name:${named},categoryId:${marker.categoryId}}`,
    `{"name":${named},"categoryId":NaN}`,
    `{"name":${named},"categoryId":0x10}`,
    `{"name":${named},,"categoryId":1}`,
  ];
  for (const text of malformed) bodies.push({ kind: `malformed JSON ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`, text, marker: { name: marker.name } });
  for (const text of ['', ' ', '\n']) bodies.push({ kind: `empty body ${JSON.stringify(text)}`, text, marker: undefined });
  return bodies;
}

/** A random body missing a required field. */
export const missingRequiredField: fc.Arbitrary<InvalidBody> = fc
  .tuple(markers, fc.option(petStatus, { nil: undefined }))
  .chain(([marker, status]) => fc.constantFrom(...missingFieldBodies(marker, status)));

/** A random invalid body of any kind. */
export const anyInvalidBody: fc.Arbitrary<InvalidBody> = markers.chain((marker) => fc.constantFrom(...invalidBodies(marker)));
