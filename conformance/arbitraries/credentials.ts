import fc from 'fast-check';

/**
 * An `Authorization` header the target must refuse with 401 (seed, Authentication: "missing or invalid"),
 * built from the valid key: absent, empty, another scheme, the key without its scheme, a wrong or altered key.
 * `header` is `undefined` when the request carries no `Authorization` at all.
 */
export interface BadCredentials {
  kind: string;
  header: string | undefined;
}

/** Every fixed kind of bad credentials for a given valid key (run exhaustively before random keys). */
export function credentialVariants(apiKey: string): BadCredentials[] {
  const variants: BadCredentials[] = [
    { kind: 'no Authorization header', header: undefined },
    { kind: 'empty Authorization header', header: '' },
    { kind: 'Bearer without a key', header: 'Bearer' },
    { kind: 'Bearer and a space without a key', header: 'Bearer ' },
    { kind: 'the right key without the Bearer scheme', header: apiKey },
    { kind: 'the right key under the Basic scheme', header: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` },
    { kind: 'the right key under the Token scheme', header: `Token ${apiKey}` },
    { kind: 'a wrong key', header: 'Bearer conformance-wrong-key' },
    { kind: 'the right key with a suffix', header: `Bearer ${apiKey}x` },
    { kind: 'a prefix of the right key', header: `Bearer ${apiKey.slice(0, -1)}` },
  ];
  if (apiKey.toUpperCase() !== apiKey) variants.push({ kind: 'the right key in upper case', header: `Bearer ${apiKey.toUpperCase()}` });
  if (apiKey.toLowerCase() !== apiKey) variants.push({ kind: 'the right key in lower case', header: `Bearer ${apiKey.toLowerCase()}` });
  return variants;
}

/** Bad credentials for a given valid key: the fixed kinds, or a random key. */
export function badCredentials(apiKey: string): fc.Arbitrary<BadCredentials> {
  return fc.oneof(fc.constantFrom(...credentialVariants(apiKey)), fc.string({ minLength: 1, maxLength: 40 }).filter((key) => key !== apiKey && /^[\x21-\x7e]+$/.test(key)).map((key) => ({ kind: 'a random key', header: `Bearer ${key}` })));
}
