import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ParseNodeFactory } from '@microsoft/kiota-abstractions';
import { startMock, type StartedMock } from '../../mock/index.js';
import { absentReason, installed, sharedCorpusFile } from '../shared-corpus.js';

/**
 * DigitalOcean's own client against the mock of DigitalOcean's own description, both as published:
 * `@digitalocean/dots` (Kiota-generated) built as its README shows — `DigitalOceanApiKeyAuthenticationProvider`,
 * `FetchRequestAdapter` with its default middleware, `createDigitalOceanClient` — with the adapter's base URL
 * pointed at the mock and one repair: the Kiota JSON reader its own ranges install cannot read a list of strings
 * (D335), so a reader that can is registered for `application/json`. It drives what a team automating DigitalOcean does: droplets, SSH keys, tags, domains with their
 * records, volumes and projects from creation to deletion, each answer read back as the client parses it (camelCase
 * members from the wire's snake_case). The package ships TypeScript sources without declarations, so it is loaded by
 * a specifier the compiler does not follow and the few members used here are typed below. Where the description or
 * the client is absent the tests skip and say so.
 */

const DESCRIPTION = 'digitalocean/DigitalOcean-public.v2.yaml';
const SPEC = sharedCorpusFile(DESCRIPTION);
const CLIENT = installed('@digitalocean/dots');
const ADAPTER = installed('@microsoft/kiota-http-fetchlibrary');
const ABSENT = SPEC === undefined ? absentReason(DESCRIPTION) : CLIENT === undefined || ADAPTER === undefined ? 'skipped: @digitalocean/dots is not installed' : undefined;
const KEY = 'dop_v1_dots-team-token';

/** Per-call options of a Kiota request builder: query parameters by their camelCase names. */
interface Options {
  queryParameters?: Record<string, string | number | boolean>;
}

/** A Kiota request builder's methods; each resolves to the parsed answer, or `undefined` for an empty one. */
interface Verbs<Answer> {
  get(options?: Options): Promise<Answer | undefined>;
  post(body: object, options?: Options): Promise<Answer | undefined>;
  put(body: object): Promise<Answer | undefined>;
  patch(body: object): Promise<Answer | undefined>;
  delete(options?: Options): Promise<undefined>;
}

/**
 * The pagination members DigitalOcean's lists carry. `links.pages` is `anyOf` [backward links, forward links, {}]:
 * the client reads it as its first alternative (`first`, `prev`) and keeps `next`/`last` in `additionalData`.
 */
interface Paged {
  links?: { pages?: { first?: string | null; prev?: string | null; additionalData?: Record<string, unknown> } | null } | null;
  meta?: { total?: number | null } | null;
}

/** The next page's number a list answer points at through `links.pages`, `undefined` on the last page. */
function nextPage(answer: Paged | undefined): number | undefined {
  const next = answer?.links?.pages?.additionalData?.['next'];
  return typeof next === 'string' ? Number(new URL(next).searchParams.get('page')) : undefined;
}

interface Droplet {
  id?: number | null;
  name?: string | null;
  sizeSlug?: string | null;
  status?: string | null;
  tags?: string[] | null;
  region?: { slug?: string | null } | null;
  image?: { slug?: string | null } | null;
}
interface DropletAnswer extends Paged {
  droplet?: Droplet | null;
  droplets?: Droplet[] | null;
}
interface ActionAnswer {
  action?: { id?: number | null; type?: string | null; status?: string | null; resourceId?: number | null } | null;
}
interface SshKey {
  id?: number | null;
  fingerprint?: string | null;
  name?: string | null;
  publicKey?: string | null;
}
interface SshKeyAnswer extends Paged {
  sshKey?: SshKey | null;
  sshKeys?: SshKey[] | null;
}
interface Tag {
  name?: string | null;
  resources?: { count?: number | null; droplets?: { count?: number | null } | null } | null;
}
interface TagAnswer extends Paged {
  tag?: Tag | null;
  tags?: Tag[] | null;
}
interface DomainRecord {
  id?: number | null;
  type?: string | null;
  name?: string | null;
  data?: string | null;
  ttl?: number | null;
}
interface DomainAnswer extends Paged {
  domain?: { name?: string | null; ttl?: number | null } | null;
  domains?: { name?: string | null }[] | null;
  domainRecord?: DomainRecord | null;
  domainRecords?: DomainRecord[] | null;
}
interface Volume {
  id?: string | null;
  name?: string | null;
  sizeGigabytes?: number | null;
  description?: string | null;
  filesystemType?: string | null;
  region?: { slug?: string | null } | null;
}
interface VolumeAnswer extends Paged {
  volume?: Volume | null;
  volumes?: Volume[] | null;
}
interface Project {
  id?: string | null;
  name?: string | null;
  description?: string | null;
  purpose?: string | null;
  environment?: string | null;
}
interface ProjectAnswer extends Paged {
  project?: Project | null;
  projects?: Project[] | null;
}

/** The part of the client's fluent API these tests walk; path keys are typed as the client declares them. */
interface DotsClient {
  v2: {
    droplets: Verbs<DropletAnswer> & { byDroplet_id(id: number): Verbs<DropletAnswer> & { actions: Verbs<ActionAnswer> } };
    account: { keys: Verbs<SshKeyAnswer> & { bySsh_key_identifier(id: number | string): Verbs<SshKeyAnswer> } };
    tags: Verbs<TagAnswer> & { byTag_id(name: string): Verbs<TagAnswer> & { resources: Verbs<undefined> } };
    domains: Verbs<DomainAnswer> & {
      byDomain_name(name: string): Verbs<DomainAnswer> & { records: Verbs<DomainAnswer> & { byDomain_record_id(id: number): Verbs<DomainAnswer> } };
    };
    volumes: Verbs<VolumeAnswer> & { byVolume_id(id: string): Verbs<VolumeAnswer> };
    projects: Verbs<ProjectAnswer> & { byProject_id(id: string): Verbs<ProjectAnswer> };
  };
}

/** What the client's and the adapter's modules export that these tests use. */
interface DotsModule {
  createDigitalOceanClient(adapter: unknown): DotsClient;
  DigitalOceanApiKeyAuthenticationProvider: new (token: string) => object;
}
interface AdapterModule {
  FetchRequestAdapter: new (authentication: object) => { baseUrl: string; getParseNodeFactory(): { contentTypeAssociatedFactories: Map<string, ParseNodeFactory> } };
}

/** What a refused call throws: Kiota's `ApiError` carrying the status, parsed into the description's error model. */
interface Refusal {
  status: number;
  id?: string;
  message?: string;
  requestId?: string;
}

/** The status and DigitalOcean error members of a refused call, `{status: 0}` when it was not refused. */
async function refusal(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    const { responseStatusCode, id, messageEscaped, requestId } = error as { responseStatusCode?: unknown; id?: unknown; messageEscaped?: unknown; requestId?: unknown };
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    return { status: Number(responseStatusCode), id: text(id), message: text(messageEscaped), requestId: text(requestId) };
  }
  return { status: 0 };
}

/** Module specifiers held in variables: the compiler must not follow them into the package's undeclared sources. */
const CLIENT_MODULE: string = '@digitalocean/dots';
const ADAPTER_MODULE: string = '@microsoft/kiota-http-fetchlibrary';

describe.skipIf(ABSENT !== undefined)(`@digitalocean/dots at its defaults against the mock of DigitalOcean's description${ABSENT === undefined ? '' : ` (${ABSENT})`}`, () => {
  let mock: StartedMock;
  let client: DotsClient;

  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [KEY] });
    const dots = (await import(CLIENT_MODULE)) as DotsModule;
    const { FetchRequestAdapter } = (await import(ADAPTER_MODULE)) as AdapterModule;
    const adapter = new FetchRequestAdapter(new dots.DigitalOceanApiKeyAuthenticationProvider(KEY));
    adapter.baseUrl = mock.baseUrl;
    client = dots.createDigitalOceanClient(adapter);
    // The one change from the defaults: the JSON reader repaired for lists of primitives (D335).
    const { ListReadingParseNodeFactory } = await import('./kiota-lists.js');
    adapter.getParseNodeFactory().contentTypeAssociatedFactories.set('application/json', new ListReadingParseNodeFactory());
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('a droplet lives: created with its name, region, size, image and tags, read back, listed page by page, powered off, deleted', async () => {
    const before = (await client.v2.droplets.get({ queryParameters: { perPage: 1 } }))?.meta?.total ?? 0;
    const created = await client.v2.droplets.post({ name: 'web-1', region: 'ams3', size: 's-2vcpu-4gb', image: 'ubuntu-22-04-x64', tags: ['web'] });
    const droplet = created?.droplet;
    expect(typeof droplet?.id).toBe('number');
    expect([droplet?.name, droplet?.sizeSlug, droplet?.region?.slug, droplet?.image?.slug, droplet?.tags]).toEqual(['web-1', 's-2vcpu-4gb', 'ams3', 'ubuntu-22-04-x64', ['web']]);
    const id = droplet!.id!;
    const read = await client.v2.droplets.byDroplet_id(id).get();
    expect([read?.droplet?.id, read?.droplet?.name, read?.droplet?.sizeSlug, read?.droplet?.tags]).toEqual([id, 'web-1', 's-2vcpu-4gb', ['web']]);
    for (const name of ['web-2', 'web-3']) await client.v2.droplets.post({ name, region: 'ams3', size: 's-2vcpu-4gb', image: 'ubuntu-22-04-x64' });
    const first = await client.v2.droplets.get({ queryParameters: { perPage: 2, page: 1 } });
    expect(first?.meta?.total).toBe(before + 3);
    expect(first?.droplets).toHaveLength(2);
    const seen = [...(first?.droplets ?? [])];
    for (let page = nextPage(first), hops = 0; page !== undefined && hops < 20; hops += 1) {
      const answer = await client.v2.droplets.get({ queryParameters: { perPage: 2, page } });
      seen.push(...(answer?.droplets ?? []));
      page = nextPage(answer);
    }
    expect(seen).toHaveLength(before + 3);
    expect(seen.map((one) => one.name)).toEqual(expect.arrayContaining(['web-1', 'web-2', 'web-3']));
    const action = await client.v2.droplets.byDroplet_id(id).actions.post({ type: 'power_off' });
    expect(action?.action?.type).toBe('power_off');
    await client.v2.droplets.byDroplet_id(id).delete();
    const gone = await refusal(client.v2.droplets.byDroplet_id(id).get());
    // The error's id as its description says: the status's name (D358).
    expect([gone.status, gone.id]).toEqual([404, 'not_found']);
    expect(gone.message).toMatch(/\S/);
  });

  test('an SSH key lives: added, read by id and by fingerprint, renamed with its public key kept, deleted', async () => {
    const publicKey = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDDHr/jh2Jy4yALcK4JyWbVkPRaWmhck3IgCoeOO3z1e2dBowLh64QAM+Qb72pxekALga2oi4GvT+TlWNhzPH4V team@example.com';
    const created = await client.v2.account.keys.post({ name: 'deploy', publicKey });
    const key = created?.sshKey;
    expect(typeof key?.id).toBe('number');
    expect([key?.name, key?.publicKey]).toEqual(['deploy', publicKey]);
    expect(key?.fingerprint).toMatch(/\S/);
    const byId = await client.v2.account.keys.bySsh_key_identifier(key!.id!).get();
    expect([byId?.sshKey?.id, byId?.sshKey?.name, byId?.sshKey?.fingerprint]).toEqual([key!.id, 'deploy', key!.fingerprint]);
    const byFingerprint = await client.v2.account.keys.bySsh_key_identifier(key!.fingerprint!).get();
    expect([byFingerprint?.sshKey?.id, byFingerprint?.sshKey?.name]).toEqual([key!.id, 'deploy']);
    const renamed = await client.v2.account.keys.bySsh_key_identifier(key!.id!).put({ name: 'deploy-2026' });
    expect([renamed?.sshKey?.id, renamed?.sshKey?.name, renamed?.sshKey?.publicKey, renamed?.sshKey?.fingerprint]).toEqual([key!.id, 'deploy-2026', publicKey, key!.fingerprint]);
    const listed = await client.v2.account.keys.get({ queryParameters: { perPage: 200 } });
    expect(listed?.sshKeys?.map((one) => one.id)).toContain(key!.id);
    await client.v2.account.keys.bySsh_key_identifier(key!.id!).delete();
    expect((await refusal(client.v2.account.keys.bySsh_key_identifier(key!.id!).get())).status).toBe(404);
  });

  test('a tag lives: created, read, carried by a droplet that the list by tag_name finds, assigned to another, deleted', async () => {
    const created = await client.v2.tags.post({ name: 'frontend' });
    expect(created?.tag?.name).toBe('frontend');
    expect((await client.v2.tags.byTag_id('frontend').get())?.tag?.name).toBe('frontend');
    const tagged = (await client.v2.droplets.post({ name: 'edge-1', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-22-04-x64', tags: ['frontend'] }))?.droplet;
    const plain = (await client.v2.droplets.post({ name: 'edge-2', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-22-04-x64' }))?.droplet;
    // Tags left out are no tags (D356), not the example's.
    expect(plain?.tags).toEqual([]);
    const listed = await client.v2.droplets.get({ queryParameters: { tagName: 'frontend', perPage: 200 } });
    expect(listed?.droplets?.map((one) => one.id)).toEqual([tagged!.id]);
    expect(listed?.meta?.total).toBe(1);
    // The assignment answers 204, which the client resolves to nothing; what it does to the droplet is not modelled.
    await expect(client.v2.tags.byTag_id('frontend').resources.post({ resources: [{ resourceId: String(plain!.id!), resourceType: 'droplet' }] })).resolves.toBeUndefined();
    await client.v2.tags.byTag_id('frontend').delete();
    expect((await refusal(client.v2.tags.byTag_id('frontend').get())).status).toBe(404);
  });

  test('a domain lives with its records: an A record added, listed, updated, deleted, then the domain deleted', async () => {
    const created = await client.v2.domains.post({ name: 'team.example.com' });
    expect(created?.domain?.name).toBe('team.example.com');
    const domain = client.v2.domains.byDomain_name('team.example.com');
    expect((await domain.get())?.domain?.name).toBe('team.example.com');
    const added = await domain.records.post({ type: 'A', name: 'www', data: '203.0.113.10', ttl: 1800 });
    const record = added?.domainRecord;
    expect(typeof record?.id).toBe('number');
    expect([record?.type, record?.name, record?.data, record?.ttl]).toEqual(['A', 'www', '203.0.113.10', 1800]);
    const listed = await domain.records.get();
    expect(listed?.domainRecords?.map((one) => one.id)).toContain(record!.id);
    const updated = await domain.records.byDomain_record_id(record!.id!).patch({ type: 'A', data: '203.0.113.20' });
    expect([updated?.domainRecord?.id, updated?.domainRecord?.name, updated?.domainRecord?.data]).toEqual([record!.id, 'www', '203.0.113.20']);
    expect((await domain.records.byDomain_record_id(record!.id!).get())?.domainRecord?.data).toBe('203.0.113.20');
    await domain.records.byDomain_record_id(record!.id!).delete();
    expect((await refusal(domain.records.byDomain_record_id(record!.id!).get())).status).toBe(404);
    await domain.delete();
    expect((await refusal(domain.get())).status).toBe(404);
  });

  test('a volume lives: created with its size, region and file system, read back, listed, deleted', async () => {
    const created = await client.v2.volumes.post({ sizeGigabytes: 10, name: 'data-1', description: 'Block storage for the database', region: 'nyc3', filesystemType: 'ext4' });
    const volume = created?.volume;
    expect(volume?.id).toMatch(/\S/);
    expect([volume?.name, volume?.sizeGigabytes, volume?.description, volume?.filesystemType, volume?.region?.slug]).toEqual(['data-1', 10, 'Block storage for the database', 'ext4', 'nyc3']);
    const read = await client.v2.volumes.byVolume_id(volume!.id!).get();
    expect([read?.volume?.id, read?.volume?.name]).toEqual([volume!.id, 'data-1']);
    const listed = await client.v2.volumes.get({ queryParameters: { perPage: 200 } });
    expect(listed?.volumes?.map((one) => one.id)).toContain(volume!.id);
    await client.v2.volumes.byVolume_id(volume!.id!).delete();
    expect((await refusal(client.v2.volumes.byVolume_id(volume!.id!).get())).status).toBe(404);
  });

  test('a project lives: created, described anew, read back, listed', async () => {
    const created = await client.v2.projects.post({ name: 'storefront', purpose: 'Web Application', environment: 'Production', description: 'The shop' });
    const project = created?.project;
    expect(project?.id).toMatch(/\S/);
    expect([project?.name, project?.purpose, project?.environment, project?.description]).toEqual(['storefront', 'Web Application', 'Production', 'The shop']);
    const patched = await client.v2.projects.byProject_id(project!.id!).patch({ description: 'The shop and its API' });
    expect([patched?.project?.id, patched?.project?.name, patched?.project?.description]).toEqual([project!.id, 'storefront', 'The shop and its API']);
    expect((await client.v2.projects.byProject_id(project!.id!).get())?.project?.description).toBe('The shop and its API');
    const listed = await client.v2.projects.get({ queryParameters: { perPage: 200 } });
    expect(listed?.projects?.map((one) => one.id)).toContain(project!.id);
  });

  test('a droplet without its size and image is refused in DigitalOcean error shape, which the client parses', async () => {
    const refused = await refusal(client.v2.droplets.post({ name: 'incomplete' }));
    // The create documents neither 400 nor 422; the description's operations that document a refusal mostly say 400.
    expect(refused.status).toBe(400);
    expect(refused.id).toBe('bad_request');
    expect(refused.message).toMatch(/size/);
    expect(refused.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});
