import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody, parseJsonGeneral } from './exact-body.js';

/**
 * The fast path of `parseJsonBody` (flat objects, read by hand) must give exactly what the general
 * path (lossless-json) gives: the same value with the same literals, the same view, the same overflows, and a
 * failure wherever the general path fails (then with its message).
 */
function expectSameAsGeneral(text: string): void {
  const fast = parseJsonBody(text);
  const general = parseJsonGeneral(text);
  expect(fast.ok, text).toBe(general.ok);
  if (fast.ok && general.ok) {
    expect(fast.body.value, text).toEqual(general.body.value);
    expect(Object.keys(fast.body.value as object), text).toEqual(Object.keys(general.body.value as object));
    expect(fast.body.view, text).toEqual(general.body.view);
    expect(fast.body.overflows, text).toEqual(general.body.overflows);
  } else if (!fast.ok && !general.ok) {
    expect(fast.message, text).toBe(general.message);
  }
}

describe('parseJsonBody: the flat-object fast path agrees with lossless-json', () => {
  it.each([
    '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}',
    '{"name":"Rex","categoryId":9223372036854775808}',
    ' { "name" : "R\\u00e9x\\n" , "categoryId" : -1.5e3 } ',
    '{}',
    '{ }',
    '{"a":true,"b":false,"c":null}',
    '{"a":1,"a":1}',
    '{"a":1,"a":2}',
    '{"__proto__":1}',
    '{"a/b~c":1e400}',
    '{"name":9223372036854775808,"0":9223372036854775808}',
    '{"1":1,"0":2,"b":"x","a":3}',
    '{"a":01}',
    '{"a":1.}',
    '{"a":-}',
    '{"a":truex}',
    '{"a":"\\x"}',
    '{"a":"\u0001"}',
    '{"a":1,}',
    '{"a":1} x',
    '{"a":{"b":1}}',
    '{"a":[1]}',
    '[1]',
    '"x"',
    '',
    '{"a":"\\ud800"}',
    '{"a":1}\n',
    '\ufeff{"a":1}',
  ])('%j', (text) => expectSameAsGeneral(text));

  it('property: same result as lossless-json on generated flat objects and on texts cut or spliced from them', () => {
    const scalar = fc.oneof(
      fc.string().map((s) => JSON.stringify(s)),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom('true', 'false', 'null', '1e400', '-0', '0.10', '1E+2', '"\\u00e9"', '"\\""', '"\\\\"'),
    );
    const member = fc.tuple(fc.oneof(fc.string(), fc.constantFrom('name', 'categoryId', 'status', '__proto__', 'a/b', 'constructor')), scalar);
    const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n ', '\u00a0');
    const object = fc
      .tuple(fc.array(fc.tuple(member, space, space), { maxLength: 5 }), space)
      .map(([members, end]) => `{${members.map(([[key, value], a, b]) => `${a}${JSON.stringify(key)}${b}:${a}${value}${b}`).join(',')}${end}}`);
    const spliced = fc.tuple(object, fc.nat(), fc.nat(), fc.constantFrom('', ',', '{', '}', '"', ':', '[', '-', '0', '\\', ' ')).map(([text, at, length, insert]) => {
      const start = at % (text.length + 1);
      return text.slice(0, start) + insert + text.slice(start + (length % 3));
    });
    fc.assert(
      fc.property(fc.oneof(object, spliced), (text) => {
        expectSameAsGeneral(text);
      }),
      { numRuns: 3000 },
    );
  });
});
