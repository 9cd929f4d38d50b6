import { isLosslessNumber } from 'lossless-json';
import { canonicalJson } from './json.js';
import { isJsonMediaType, type Schema } from './schema.js';

/**
 * How a media type's body is written (spec/DECISIONS.md › D57): JSON (`application/json`, `*+json`), XML
 * (`application/xml`, `text/xml`, `*+xml`), other text (`text/*`, `application/x-www-form-urlencoded`,
 * `application/yaml`…), or bytes (`image/png`, `application/octet-stream`, anything else).
 */
export type MediaKind = 'json' | 'xml' | 'text' | 'binary';

/** The kind of a media type (parameters ignored, case-insensitive); see {@link MediaKind}. */
export function mediaKind(mediaType: string): MediaKind {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (isJsonMediaType(type) || type === '*/*') return 'json';
  if (/^(?:application|text)\/(?:[\w.+-]+\+)?xml$/.test(type)) return 'xml';
  if (type.startsWith('text/') || /^application\/(?:x-www-form-urlencoded|(?:x-)?yaml|javascript|x-ndjson|graphql|sql)$/.test(type)) return 'text';
  return 'binary';
}

/**
 * The media type to name in `Content-Type` for a documented one: itself, or for a range (`*\/*` in specs generated
 * by Springdoc, `image/*`, `audio/*`) a concrete type of it, so that a client whose `Accept` names the range takes
 * it: `application/json`, `image/png`, `text/plain`, `audio/mpeg`, `video/mp4`, `font/woff2`, else
 * `application/octet-stream`.
 */
export function concreteType(mediaType: string): string {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (!type.includes('*')) return mediaType;
  return CONCRETE_OF_RANGE[type] ?? 'application/octet-stream';
}

/** A common concrete type of each media range descriptions document (jellyfin's `video/*`, elevenlabs' `audio/*`). */
const CONCRETE_OF_RANGE: Readonly<Record<string, string>> = {
  '*/*': 'application/json',
  'application/*': 'application/json',
  'image/*': 'image/png',
  'text/*': 'text/plain',
  'audio/*': 'audio/mpeg',
  'video/*': 'video/mp4',
  'font/*': 'font/woff2',
};

/** A body ready for the wire: text (sent as UTF-8) or bytes. */
export type Payload = { text: string; bytes?: undefined } | { text?: undefined; bytes: Buffer };

/** A 1×1 transparent PNG: the smallest answer an `<img>` shows without an error. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
/** A 1×1 GIF. */
const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

/** A few bytes of the media type where one is known (PNG, GIF, PDF), else four bytes. */
function sampleBytes(mediaType: string): Buffer {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/png') return Buffer.from(PNG);
  if (type === 'image/gif') return Buffer.from(GIF);
  if (type === 'application/pdf') return Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
  return Buffer.from([0x6d, 0x6f, 0x63, 0x6b]);
}

/**
 * A value written as a body of `mediaType`: JSON text (int64 exact), XML (elements named after the members,
 * the root after the schema's `xml.name`, else `root`), text (a string as is, anything else as JSON), or bytes
 * (a string example as its UTF-8 bytes, else {@link sampleBytes}).
 */
export function serialize(value: unknown, mediaType: string, schema: Schema | undefined): Payload {
  switch (mediaKind(mediaType)) {
    case 'json':
      return { text: canonicalJson(value) };
    case 'xml':
      return { text: typeof value === 'string' && value.trimStart().startsWith('<') ? value : `<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement(xmlName(schema) ?? 'root', value, schema)}` };
    case 'text':
      return { text: typeof value === 'string' ? value : canonicalJson(value) };
    case 'binary':
      return { bytes: typeof value === 'string' && value !== '' ? Buffer.from(value, 'utf8') : sampleBytes(mediaType) };
  }
}

function xmlName(schema: Schema | undefined): string | undefined {
  const xml = schema?.['xml'] as { name?: unknown } | undefined;
  return typeof xml?.name === 'string' && /^[A-Za-z_][\w.-]*$/.test(xml.name) ? xml.name : undefined;
}

function xmlElement(name: string, value: unknown, schema: Schema | undefined): string {
  if (Array.isArray(value)) {
    const items = schema?.['items'] as Schema | undefined;
    const inner = value.map((item) => xmlElement(xmlName(items) ?? 'item', item, items)).join('');
    return `<${name}>${inner}</${name}>`;
  }
  if (value !== null && typeof value === 'object' && !isLosslessNumber(value)) {
    const properties = (schema?.['properties'] ?? {}) as Record<string, Schema>;
    const inner = Object.entries(value)
      .filter(([key]) => /^[A-Za-z_][\w.-]*$/.test(key))
      .map(([key, member]) => xmlElement(xmlName(properties[key]) ?? key, member, properties[key]))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : canonicalJson(value);
  return `<${name}>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</${name}>`;
}

/** One media range of an `Accept` header (RFC 9110 §12.5.1): type and subtype lower-cased, its quality `q`. */
export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/**
 * Parses an `Accept` header into its media ranges (RFC 9110 §12.5.1). Parameters other than `q` (`charset`,
 * `version`) are dropped: they never decide whether a range fits. An unreadable `q` counts as 1, a range without
 * a subtype as `type/*`. `undefined` when there is no header or it is blank (the client accepts anything).
 */
export function parseAccept(header: string | readonly string[] | undefined): MediaRange[] | undefined {
  if (header === undefined) return undefined;
  const text = typeof header === 'string' ? header : header.join(',');
  if (text.trim() === '') return undefined;
  return text.split(',').flatMap((part): MediaRange[] => {
    const [range = '', ...parameters] = part.split(';');
    if (range.trim() === '') return [];
    const [type = '*', subtype = '*'] = range.trim().toLowerCase().split('/');
    const qParameter = parameters.map((p) => p.trim().toLowerCase()).find((p) => /^q\s*=/.test(p));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(qParameter.indexOf('=') + 1).trim());
    return [{ type: type.trim() || '*', subtype: subtype.trim() || '*', q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 1 }];
  });
}

/** A subtype's structured-syntax suffix (`json` of `vnd.api+json`, RFC 6839), `undefined` when it has none. */
function suffixOf(subtype: string): string | undefined {
  const plus = subtype.lastIndexOf('+');
  return plus > 0 ? subtype.slice(plus + 1) : undefined;
}

/**
 * How specifically a media range fits a media type, `-1` when it does not (spec/DECISIONS.md › D140): 4 the
 * same type, 3 a structured suffix and its base either way (`application/vnd.x.v3+json` ↔ `application/json`,
 * RFC 6839 §4.1: a processor of the base reads the suffixed type), 2 two suffixed types of one type sharing the
 * suffix (both read as that base), 1 `type/*`, 0 `*\/*`. A documented range (`*\/*`, `image/*`) fits any type the
 * range names within it. Parameters of either side are ignored.
 */
export function rangeFit(range: Pick<MediaRange, 'type' | 'subtype'>, mediaType: string): number {
  const [type = '', subtype = ''] = mediaType.split(';')[0]!.trim().toLowerCase().split('/');
  if (range.type === '*' && range.subtype === '*') return 0;
  if (type === '*' && subtype === '*') return 0;
  if (range.type !== type && type !== '*') return -1;
  if (range.subtype === '*' || subtype === '*') return 1;
  if (range.subtype === subtype) return 4;
  const rangeSuffix = suffixOf(range.subtype);
  const typeSuffix = suffixOf(subtype);
  if (rangeSuffix === subtype || typeSuffix === range.subtype) return 3;
  if (rangeSuffix !== undefined && rangeSuffix === typeSuffix) return 2;
  return -1;
}

/**
 * Whether a request body's concrete media type (`application/json`, no parameters) lies within a media range its
 * operation documents (`*\/*`, `application/*`, `image/*`), when it is not documented by name (spec/DECISIONS.md ›
 * D931, as D340 reads a range for answers): a range documents every type within it. A type left unnamed (`''`)
 * lies within none.
 */
export function withinDocumentedRange(documented: readonly string[], mediaType: string): boolean {
  if (mediaType === '' || mediaType.includes('*')) return false;
  return documented.some((type) => {
    const [range = '', subtype = ''] = type.split(';')[0]!.trim().toLowerCase().split('/');
    return (range === '*' || subtype === '*') && rangeFit({ type: range, subtype }, mediaType) >= 0;
  });
}

/**
 * How an `Accept` header takes a media type (RFC 9110 §12.5.1): the `q` of the most specific range that fits it
 * and that range's fit (see {@link rangeFit}); `{ q: 0, fit: -1 }` when none fits. `ranges` as
 * {@link parseAccept} reads them.
 */
export function acceptMatch(ranges: readonly MediaRange[], mediaType: string): { q: number; fit: number } {
  let fit = -1;
  let q = 0;
  for (const range of ranges) {
    const rangeFits = rangeFit(range, mediaType);
    if (rangeFits > fit) {
      fit = rangeFits;
      q = range.q;
    }
  }
  return { q, fit };
}

/** The quality an `Accept` header gives a media type: {@link acceptMatch}'s `q`, 0 when no range fits. */
export function acceptQuality(ranges: readonly MediaRange[], mediaType: string): number {
  return acceptMatch(ranges, mediaType).q;
}
