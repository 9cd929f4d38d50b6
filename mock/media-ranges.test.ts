import { describe, expect, test } from 'vitest';
import { concreteType } from '../model/media.js';
import { call, documentMock } from '../test/in-process.js';

// Descriptions document an answer's media type as a range (`audio/*` of elevenlabs.io, `video/*` of jellyfin):
// the mock names a concrete type of that range, one a client whose Accept names the range takes.
const bytesAnswer = (range: string) => ({
  get: { operationId: `get${range.split('/')[0]}`, responses: { '200': { description: 'the bytes', content: { [range]: {} } } } },
});

describe('an answer documented as a media range', () => {
  test('is named by a concrete type of the range', () => {
    for (const range of ['audio/*', 'video/*', 'image/*', 'text/*', 'font/*']) {
      const concrete = concreteType(range);
      expect(concrete.includes('*')).toBe(false);
      expect(concrete.split('/')[0]).toBe(range.split('/')[0]);
    }
  });

  test('is answered with it, to a client asking for the range', async () => {
    const mock = await documentMock({ paths: { '/samples/{id}/audio': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], ...bytesAnswer('audio/*') }, '/clips/{id}': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], ...bytesAnswer('video/*') } } });
    const audio = call(mock.handle, { url: '/api/samples/a1/audio', headers: { accept: 'audio/*, application/json', authorization: 'Bearer openapi-harness-dev-key' } });
    expect([audio.status, audio.headers['content-type']]).toEqual([200, 'audio/mpeg']);
    const video = call(mock.handle, { url: '/api/clips/c1', headers: { accept: 'video/*', authorization: 'Bearer openapi-harness-dev-key' } });
    expect([video.status, video.headers['content-type']]).toEqual([200, 'video/mp4']);
  });
});
