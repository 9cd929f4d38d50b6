import { describe, expect, it } from 'vitest';
import { negotiate } from '../mock/answers.js';
import { accepts } from '../judge/exchange.js';
import { acceptQuality, parseAccept, rangeFit } from './media.js';

/** Content negotiation as HTTP defines it (RFC 9110 §12.5.1, RFC 6839), one reading for the mock and the judge (D140). */
describe('Accept matching (D140)', () => {
  const docs = (...types: string[]): { mediaType: string }[] => types.map((mediaType) => ({ mediaType }));

  it('reads ranges with their q, dropping charset and version parameters and clamping q', () => {
    expect(parseAccept('application/vnd.x.v3+json; charset=utf-8; version=2, text/*;q=0.5, */*;q=7')).toEqual([
      { type: 'application', subtype: 'vnd.x.v3+json', q: 1 },
      { type: 'text', subtype: '*', q: 0.5 },
      { type: '*', subtype: '*', q: 1 },
    ]);
    expect(parseAccept('  ')).toBeUndefined();
    expect(parseAccept(undefined)).toBeUndefined();
    expect(parseAccept(['image/png', 'text/plain;q=0'])).toEqual([{ type: 'image', subtype: 'png', q: 1 }, { type: 'text', subtype: 'plain', q: 0 }]);
  });

  it('fits a structured suffix and its base both ways, less specifically than the type itself', () => {
    const range = (text: string): { type: string; subtype: string } => parseAccept(text)![0]!;
    expect(rangeFit(range('application/vnd.x.v3+json'), 'application/json; charset=utf-8')).toBe(3);
    expect(rangeFit(range('application/json'), 'application/vnd.x.v3+json')).toBe(3);
    expect(rangeFit(range('application/vnd.x.v3+json'), 'application/scim+json')).toBe(2);
    expect(rangeFit(range('application/json'), 'application/json')).toBe(4);
    expect(rangeFit(range('application/*'), 'application/json')).toBe(1);
    expect(rangeFit(range('*/*'), 'image/png')).toBe(0);
    expect(rangeFit(range('application/vnd.x+json'), 'application/xml')).toBe(-1);
    expect(rangeFit(range('application/vnd.x+xml'), 'application/vnd.y+json')).toBe(-1);
    expect(rangeFit(range('text/json'), 'application/json')).toBe(-1);
  });

  it('gives a type the q of its most specific fitting range', () => {
    const ranges = parseAccept('application/xml;q=0, */*;q=0.3, application/json;q=0.8')!;
    expect(acceptQuality(ranges, 'application/xml')).toBe(0);
    expect(acceptQuality(ranges, 'application/json')).toBe(0.8);
    expect(acceptQuality(ranges, 'image/png')).toBe(0.3);
    expect(acceptQuality(parseAccept('text/plain')!, 'image/png')).toBe(0);
  });

  it('the mock answers JSON to a vendor +json Accept and refuses only when nothing documented fits', () => {
    expect(negotiate(docs('application/json'), 'application/vnd.x.v3+json')?.mediaType).toBe('application/json');
    expect(negotiate(docs('application/json'), 'application/vnd.x.v3+json; charset=utf-8; version=3')?.mediaType).toBe('application/json');
    expect(negotiate(docs('application/scim+json', 'application/json'), 'application/vnd.x.v3+json')?.mediaType).toBe('application/json');
    expect(negotiate(docs('application/scim+json'), 'application/vnd.x.v3+json')?.mediaType).toBe('application/scim+json');
    expect(negotiate(docs('text/html', 'application/json'), 'text/html;q=0.2, application/vnd.x+json;q=0.9')?.mediaType).toBe('application/json');
    expect(negotiate(docs('application/json', 'application/xml'), 'application/json;q=0, */*')?.mediaType).toBe('application/xml');
    expect(negotiate(docs('application/json'), 'application/json;q=0')).toBeUndefined();
    expect(negotiate(docs('application/json'), 'image/png, text/*')).toBeUndefined();
    expect(negotiate(docs('image/png'), 'application/vnd.x.v3+json')).toBeUndefined();
  });

  it('the judge admits a JSON answer to a vendor +json Accept the same way, and no type nothing fits', () => {
    expect(accepts('application/vnd.x.v3+json', 'application/json; charset=utf-8')).toBe(true);
    expect(accepts('application/vnd.x.v3+json; version=2', 'application/scim+json')).toBe(true);
    expect(accepts('application/vnd.x.v3+json', 'text/html')).toBe(false);
    expect(accepts('application/json;q=0', 'application/vnd.x+json')).toBe(false);
  });
});
