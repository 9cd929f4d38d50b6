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
 * by Springdoc, `image/*`) a concrete type of it: `application/json`, `image/png`, `text/plain`, else
 * `application/octet-stream`.
 */
export function concreteType(mediaType: string): string {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (!type.includes('*')) return mediaType;
  if (type === '*/*' || type === 'application/*') return 'application/json';
  if (type === 'image/*') return 'image/png';
  if (type === 'text/*') return 'text/plain';
  return 'application/octet-stream';
}

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
