import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { absentReason, sharedCorpusFile } from '../shared-corpus.js';

/**
 * OpenAI's public description (../shared/corpus/openai/openapi.yaml) served by the mock to OpenAI's official Node
 * client (the `openai` package, a development dependency), used at its defaults as a chat front-end team would:
 * `new OpenAI({ apiKey, baseURL })`, nothing else set, so every request carries the client's own headers
 * (`Accept: application/json`, its retries, its user agent). The package declares Node >= 22 but runs on Node 20
 * here. Nothing in the mock names OpenAI: what these steps need is read from the description generically (updates by
 * POST on the item path D150, uploads D151, streams D152-D153, a catalogue's starting record D154).
 * Where the corpus file or the package is absent, the tests skip and say so.
 */
const FILE = 'openai/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const client = await import('openai').catch(() => undefined);
const KEY = 'sk-mock-test-key';
const skipReason = SPEC === undefined ? absentReason(FILE) : client === undefined ? 'skipped: the openai package is not installed (npm install restores it)' : undefined;

type Client = InstanceType<NonNullable<typeof client>['default']>;

describe.skipIf(skipReason !== undefined)(`OpenAI's description served to the official openai client${skipReason === undefined ? '' : ` (${skipReason})`}`, () => {
  const { default: OpenAI, toFile, NotFoundError } = client!;
  let mock: StartedMock;
  let openai: Client;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
    openai = new OpenAI({ apiKey: KEY, baseURL: mock.baseUrl });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('models: the list shows a model, and retrieving it by its id gives the same model', async () => {
    const page = await openai.models.list();
    expect(page.data.length).toBeGreaterThan(0);
    const first = page.data[0]!;
    expect(first).toMatchObject({ id: expect.any(String), object: 'model', owned_by: expect.any(String) });
    expect(await openai.models.retrieve(first.id)).toEqual(first);
    await expect(openai.models.retrieve('no-such-model')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('a plain chat completion: a choice whose message content is a string', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices.length).toBeGreaterThan(0);
    expect(typeof completion.choices[0]!.message.content).toBe('string');
    expect(completion.choices[0]!.message.role).toBe('assistant');
  }, 60_000);

  test('a streamed chat completion: chunks arrive with deltas, and the stream ends', async () => {
    const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.choices[0]!.delta).toEqual(expect.any(Object));
    }
    expect(chunks.map((chunk) => chunk.choices[0]!.delta.content).filter((content) => typeof content === 'string').length).toBeGreaterThan(0);
  }, 60_000);

  test('an assistant\'s whole life: created, read as written, updated and kept, listed, deleted, then a NotFoundError', async () => {
    const created = await openai.beta.assistants.create({ model: 'gpt-4o-mini', name: 'Math tutor', instructions: 'Answer with worked steps.', tools: [], metadata: { team: 'front' } });
    expect(created).toMatchObject({ object: 'assistant', model: 'gpt-4o-mini', name: 'Math tutor', instructions: 'Answer with worked steps.', metadata: { team: 'front' } });
    expect(await openai.beta.assistants.retrieve(created.id)).toEqual(created);

    const updated = await openai.beta.assistants.update(created.id, { name: 'Algebra tutor', metadata: { team: 'core' } });
    expect(updated).toEqual({ ...created, name: 'Algebra tutor', metadata: { team: 'core' } });
    expect(await openai.beta.assistants.retrieve(created.id)).toEqual(updated);

    const listed = [];
    for await (const assistant of openai.beta.assistants.list()) listed.push(assistant);
    expect(listed.find((assistant) => assistant.id === created.id)).toEqual(updated);

    expect(await openai.beta.assistants.delete(created.id)).toMatchObject({ id: created.id, deleted: true });
    const gone = await openai.beta.assistants.retrieve(created.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as InstanceType<typeof NotFoundError>).status).toBe(404);
  });

  test('a thread and its messages: metadata updated by POST and kept, a message listed under its thread and updated', async () => {
    const thread = await openai.beta.threads.create({ metadata: { user: 'ada' } });
    expect(thread).toMatchObject({ object: 'thread', metadata: { user: 'ada' } });
    expect(await openai.beta.threads.update(thread.id, { metadata: { user: 'grace' } })).toEqual({ ...thread, metadata: { user: 'grace' } });
    expect((await openai.beta.threads.retrieve(thread.id)).metadata).toEqual({ user: 'grace' });

    const message = await openai.beta.threads.messages.create(thread.id, { role: 'user', content: 'Hello there' });
    expect(message).toMatchObject({ object: 'thread.message', thread_id: thread.id, role: 'user' });
    const listed = await openai.beta.threads.messages.list(thread.id);
    expect(listed.data.map((item) => item.id)).toEqual([message.id]);
    const tagged = await openai.beta.threads.messages.update(message.id, { thread_id: thread.id, metadata: { mood: 'curious' } });
    // Members of an object sent in an update are merged into the record's (D75): the message's own metadata stays.
    expect(tagged).toEqual({ ...message, metadata: { ...message.metadata, mood: 'curious' } });
    expect(await openai.beta.threads.messages.retrieve(message.id, { thread_id: thread.id })).toEqual(tagged);

    expect(await openai.beta.threads.delete(thread.id)).toMatchObject({ id: thread.id, deleted: true });
    await expect(openai.beta.threads.retrieve(thread.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('files: an upload keeps its file name and size in bytes, is listed, deleted, then a NotFoundError', async () => {
    const content = Buffer.from('{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}\n');
    const uploaded = await openai.files.create({ file: await toFile(content, 'train.jsonl'), purpose: 'fine-tune' });
    expect(uploaded).toMatchObject({ object: 'file', filename: 'train.jsonl', bytes: content.length, purpose: 'fine-tune' });
    expect(await openai.files.retrieve(uploaded.id)).toEqual(uploaded);

    const listed = [];
    for await (const file of openai.files.list()) listed.push(file);
    expect(listed.find((file) => file.id === uploaded.id)).toEqual(uploaded);

    expect(await openai.files.delete(uploaded.id)).toMatchObject({ id: uploaded.id, deleted: true });
    await expect(openai.files.retrieve(uploaded.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('batches: created from an uploaded file, read as written, listed', async () => {
    const input = await openai.files.create({ file: await toFile(Buffer.from('{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}\n'), 'batch.jsonl'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch).toMatchObject({ object: 'batch', input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(await openai.batches.retrieve(batch.id)).toEqual(batch);
    const listed = [];
    for await (const item of openai.batches.list()) listed.push(item);
    expect(listed.find((item) => item.id === batch.id)).toEqual(batch);
  });

  test('vector stores: created, read, renamed by update and kept, listed, deleted, then a NotFoundError', async () => {
    const created = await openai.vectorStores.create({ name: 'Support articles', metadata: { source: 'help-center' } });
    expect(created).toMatchObject({ object: 'vector_store', name: 'Support articles', metadata: { source: 'help-center' } });
    expect(await openai.vectorStores.retrieve(created.id)).toEqual(created);

    const renamed = await openai.vectorStores.update(created.id, { name: 'Help articles' });
    expect(renamed).toEqual({ ...created, name: 'Help articles' });
    expect(await openai.vectorStores.retrieve(created.id)).toEqual(renamed);

    const listed = [];
    for await (const store of openai.vectorStores.list()) listed.push(store);
    expect(listed.find((store) => store.id === created.id)).toEqual(renamed);

    expect(await openai.vectorStores.delete(created.id)).toMatchObject({ id: created.id, deleted: true });
    await expect(openai.vectorStores.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
