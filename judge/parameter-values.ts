import { parseExact } from '../model/json.js';
import type { ParameterModel } from '../model/model.js';

/** The JSON value a parameter's text stands for (numbers and booleans parsed exactly; strings as they are). */
export function parameterValue(param: ParameterModel, text: string): { value: unknown; view: unknown } {
  if (param.type === 'integer' || param.type === 'number' || param.type === 'boolean') {
    // Short integers and booleans are exact as JS values: the common query (`limit=20`) needs no parser.
    if (/^-?\d{1,15}$/.test(text)) return { value: Number(text), view: Number(text) };
    if (text === 'true' || text === 'false') return { value: text === 'true', view: text === 'true' };
    const parsed = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)$/.test(text) ? parseExact(text) : undefined;
    if (parsed?.ok === true) return { value: parsed.document.value, view: parsed.document.view };
  }
  if (param.type === 'array') {
    const items = text.split(',');
    return { value: items, view: items };
  }
  return { value: text, view: text };
}
