import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { WILD_KEY, wildClient, type WildAuth, type WildProbe } from './wild-corpus/wild-client.js';
import { bookshop, notes, nursery, recipes, rides } from './wild-corpus/probes-classic.js';
import { alerts, boards, catalogue, codeReview, versions, webhooks } from './wild-corpus/probes-examples.js';
import { chat, ferry, forge, gallery, identity } from './wild-corpus/probes-modern.js';
import { articles, cloudExtras, droplets } from './wild-corpus/probes-envelopes.js';
import { assistant } from './wild-corpus/probes-streams.js';
import { marketplace } from './wild-corpus/probes-ranges.js';

/**
 * The corpus from the wild (spec/wild/README.md): for every spec in the shape of a public OpenAPI
 * document, the mock starts from it as a user would start it (`--spec FILE`, default starting data), the whole
 * suite derived from the same file passes against that mock, and short probes written from the spec's own
 * descriptions (create, read, list, page, change, delete, bad input) find what a front-end developer expects.
 * Each probe gets a mock of its own, so that it sees only its own records and the spec's starting ones.
 */
const RUNS = 10;

interface WildCase {
  file: string;
  auth: WildAuth;
  probes: Record<string, WildProbe>;
}

const CASES: readonly WildCase[] = [
  { file: 'nursery-3.0.yaml', auth: 'bearer', probes: nursery },
  { file: 'bookshop-2.0.yaml', auth: 'bearer', probes: bookshop },
  { file: 'notes-3.0.yaml', auth: 'none', probes: notes },
  { file: 'recipes-expanded-3.0.yaml', auth: 'none', probes: recipes },
  { file: 'versions-examples-3.0.yaml', auth: 'none', probes: versions },
  { file: 'rides-offset-3.0.yaml', auth: { query: 'server_token' }, probes: rides },
  { file: 'code-review-links-3.0.yaml', auth: 'none', probes: codeReview },
  { file: 'boards-links-3.0.yaml', auth: 'none', probes: boards },
  { file: 'catalogue-search-form-3.0.yaml', auth: 'none', probes: catalogue },
  { file: 'alerts-callback-3.0.yaml', auth: 'none', probes: alerts },
  { file: 'webhooks-scopes-3.1.yaml', auth: 'bearer', probes: webhooks },
  { file: 'ferry-travel-3.1.yaml', auth: 'bearer', probes: ferry },
  { file: 'gallery-3.1.yaml', auth: 'basic', probes: gallery },
  { file: 'identity-clients-3.0.yaml', auth: 'bearer', probes: identity },
  { file: 'forge-issues-3.0.yaml', auth: 'basic', probes: forge },
  { file: 'chat-rooms-rpc-3.0.yaml', auth: 'bearer', probes: chat },
  { file: 'droplets-envelope-3.0.yaml', auth: 'bearer', probes: droplets },
  { file: 'articles-jsonapi-3.1.yaml', auth: 'bearer', probes: articles },
  { file: 'cloud-extras-3.0.yaml', auth: 'bearer', probes: cloudExtras },
  { file: 'assistant-streams-3.2.yaml', auth: 'bearer', probes: assistant },
  { file: 'marketplace-3.1.yaml', auth: 'bearer', probes: marketplace },
  // Written for the suite's documented refusals (test/independent/quiet-windows/): its operations are probed there.
  { file: 'quiet-windows-3.0.yaml', auth: 'bearer', probes: {} },
];

const specPath = (file: string) => join(PACKAGE_ROOT, 'spec', 'wild', file);
const start = (file: string) => startMock({ spec: specPath(file), port: 0, apiKeys: [WILD_KEY] });

test('the corpus holds every spec of spec/wild/ and at least twelve, one of them Swagger 2.0', async () => {
  const { readdir } = await import('node:fs/promises');
  const files = (await readdir(join(PACKAGE_ROOT, 'spec', 'wild'))).filter((name) => name.endsWith('.yaml')).sort();
  expect(CASES.map((one) => one.file).sort()).toEqual(files);
  expect(files.length).toBeGreaterThanOrEqual(12);
  expect(files.some((name) => name.endsWith('-2.0.yaml'))).toBe(true);
});

for (const { file, auth, probes } of CASES) {
  describe(file, () => {
    let mock: StartedMock;
    beforeAll(async () => {
      mock = await start(file);
    });
    afterAll(async () => {
      await mock?.close();
    });

    test('every check the suite derives from it passes against the mock', async () => {
      const target = { baseUrl: mock.baseUrl, apiKey: WILD_KEY, spec: specPath(file), runs: RUNS };
      const ids = await listCheckIds(target);
      expect(ids.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const id of ids) {
        const outcome = await runCheck(id, target);
        if (!outcome.ok) failures.push(outcome.report);
      }
      expect(failures.join('\n\n')).toBe('');
    });

    for (const [story, probe] of Object.entries(probes)) {
      test(`probe: ${story}`, async () => {
        const own = await start(file);
        try {
          await probe(wildClient(own.baseUrl, auth));
        } finally {
          await own.close();
        }
      });
    }
  });
}
