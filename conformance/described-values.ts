import type { ParameterModel } from '../model/model.js';
import { validSample } from '../model/samples.js';

/**
 * The values a description gives a parameter, in the order the suite prefers them (D220): the parameter's example,
 * its schema's first example, example, first enum member and default; those given only.
 */
function givenValues(parameter: ParameterModel): unknown[] {
  const schema = parameter.schema;
  return [parameter.example, (schema['examples'] as unknown[] | undefined)?.[0], schema['example'], (schema['enum'] as unknown[] | undefined)?.[0], schema['default']].filter((value) => value !== undefined);
}

/** Whether `parameter`'s schema takes `value`, or, for a number written as text (`"3"` of an integer), the number. */
function takes(parameter: ParameterModel, value: unknown): boolean {
  if (parameter.validate(value)) return true;
  const numeric = (parameter.type === 'integer' || parameter.type === 'number') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value));
  return numeric && parameter.validate(Number(value));
}

/**
 * The value the description gives `parameter` that its own schema takes (spec/DECISIONS.md › D906): of
 * {@link givenValues}, the first the schema takes, else a sample valid for the schema, else the first given (a
 * server holding to the parameter's format refuses a `date` whose default is a date-time, which a value of the
 * schema never is). `undefined` when the description gives none and no sample can be made.
 */
export function describedValue(parameter: ParameterModel): unknown {
  const given = givenValues(parameter);
  const valid = given.find((value) => takes(parameter, value));
  if (valid !== undefined) return valid;
  return validSample(parameter.schema) ?? given[0];
}

/** Whether the description gives `parameter` a value of its own (an example, an enum member or a default). */
export function hasGivenValue(parameter: ParameterModel): boolean {
  return givenValues(parameter).length > 0;
}
