import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../model/loader.js';
import type { BrokenServer } from './broken-servers.js';
import type { Fault, ProxyAnswer, ProxyRequest } from './corpus-proxy.js';

// Broken servers of documented streams (D85, D86, D88): each is the correct mock of the OpenAPI 3.2 assistant spec
// behind a proxy that spoils one thing of a streamed answer. The proxy reads the whole stream before it answers:
// the faults are in what is sent, not in when.

/** The spec of the stream broken servers: a chat-completions-shaped API with SSE, JSON Lines and JSON text sequences. */
export const ASSISTANT_SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'assistant-streams-3.2.yaml');

const streamedCreate = (request: ProxyRequest): boolean => request.method === 'POST' && request.path === '/chat/completions';
const isStream = (answer: ProxyAnswer, type: string): boolean => (answer.headers['content-type'] ?? '').startsWith(type);

/** A fault that rewrites the body of every answer of media type `type` to the requests `matches` selects. */
function rewriting(type: string, matches: (request: ProxyRequest) => boolean, edit: (body: string) => string): () => Fault {
  return () => async (request, forward) => {
    const answer = await forward(request);
    return matches(request) && isStream(answer, type) ? { ...answer, body: edit(answer.body) } : answer;
  };
}

/** Every stream broken server, with the check that must reject it. */
export const STREAM_BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'chunks off their schema',
    spec: ASSISTANT_SPEC,
    fault: 'each chunk of the streamed create says "object": "chunk" where the schema says const chat.completion.chunk',
    mustFail: ['createChatCompletion.stream'],
    inject: rewriting('text/event-stream', streamedCreate, (body) => body.split('"chat.completion.chunk"').join('"chunk"')),
  },
  {
    name: 'stream without its terminator',
    spec: ASSISTANT_SPEC,
    fault: 'the streamed create never sends the data: [DONE] its description states',
    mustFail: ['createChatCompletion.stream'],
    inject: rewriting('text/event-stream', streamedCreate, (body) => body.replace('data: [DONE]\n\n', '')),
  },
  {
    name: 'events not separated by blank lines',
    spec: ASSISTANT_SPEC,
    fault: 'the SSE events of a run follow each other without the blank line that dispatches each',
    mustFail: ['startRun.stream'],
    inject: rewriting('text/event-stream', (request) => request.path === '/runs', (body) => body.replace(/\n\n/g, '\n')),
  },
  {
    name: 'event names the spec does not list',
    spec: ASSISTANT_SPEC,
    fault: 'a run\'s events are named run.progress, which the itemSchema\'s event enum does not list',
    mustFail: ['startRun.stream'],
    inject: rewriting('text/event-stream', (request) => request.path === '/runs', (body) => body.replace(/^event: run\.step$/gm, 'event: run.progress')),
  },
  {
    name: 'stream asked for, JSON answered',
    spec: ASSISTANT_SPEC,
    fault: 'the create ignores "stream": true and Accept: text/event-stream, answering one JSON completion',
    mustFail: ['createChatCompletion.stream'],
    inject: () => (request, forward) => {
      if (!streamedCreate(request)) return forward(request);
      const body = request.body === '' ? request.body : JSON.stringify({ ...(JSON.parse(request.body) as Record<string, unknown>), stream: false });
      return forward({ ...request, body, headers: { ...request.headers, accept: 'application/json' } });
    },
  },
  {
    name: 'JSON Lines sent as one JSON array',
    spec: ASSISTANT_SPEC,
    fault: 'the export answers Content-Type application/jsonl with a pretty-printed JSON array',
    mustFail: ['exportCompletions.stream'],
    inject: rewriting('application/jsonl', (request) => request.path === '/exports/completions', (body) => JSON.stringify(body.trim().split('\n').map((line) => JSON.parse(line) as unknown), null, 2)),
  },
  {
    name: 'JSON text sequence without record separators',
    spec: ASSISTANT_SPEC,
    fault: 'the export answers application/json-seq without the RS before each value',
    mustFail: ['exportCompletions.stream'],
    inject: rewriting('application/json-seq', (request) => request.path === '/exports/completions', (body) => body.split('\u001e').join('')),
  },
  {
    name: 'streamed create not stored',
    spec: ASSISTANT_SPEC,
    fault: 'the chunks of a streamed create name a completion id that was never stored',
    mustFail: ['createChatCompletion.stream'],
    inject: rewriting('text/event-stream', streamedCreate, (body) => body.replace(/"id":"[^"]*"/g, '"id":"chatcmpl-never-stored"')),
  },
];
