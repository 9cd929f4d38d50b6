import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// A cut of GitHub's own description (the `@octokit/openapi` development dependency): the operations of issues,
// issue comments, repository and issue labels and milestones, with every component they reference, written to a
// temporary file at test time. Nothing of GitHub's text is copied into the tree.

/**
 * The operations of the cut, by `operationId`: what an issues backend serves, and the read of the repository every
 * path lives under (without it no record names the `{owner}/{repo}` the others need, D265).
 */
export const GITHUB_ISSUES_OPERATIONS: readonly string[] = [
  'repos/get',
  'issues/list-for-repo',
  'issues/create',
  'issues/get',
  'issues/update',
  'issues/list-comments-for-repo',
  'issues/get-comment',
  'issues/update-comment',
  'issues/delete-comment',
  'issues/list-comments',
  'issues/create-comment',
  'issues/list-labels-for-repo',
  'issues/create-label',
  'issues/get-label',
  'issues/update-label',
  'issues/delete-label',
  'issues/list-labels-on-issue',
  'issues/add-labels',
  'issues/set-labels',
  'issues/remove-label',
  'issues/list-milestones',
  'issues/create-milestone',
  'issues/get-milestone',
  'issues/update-milestone',
  'issues/delete-milestone',
];

/** Why the GitHub cut's tests skip when they do. */
export const GITHUB_ABSENT = 'skipped: @octokit/openapi (GitHub\'s description, a development dependency) is not installed';

/** The path of `@octokit/openapi`'s `generated/api.github.com.json`, or `undefined` when the package is absent. */
export function githubDescriptionFile(): string | undefined {
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every local `$ref` (`#/components/<kind>/<name>`) inside `value`, as `[kind, name]`. */
function refsOf(value: Json, found: Array<[string, string]>): void {
  if (Array.isArray(value)) {
    for (const item of value) refsOf(item, found);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string') {
      const match = /^#\/components\/([^/]+)\/(.+)$/.exec(inner);
      if (match !== null) found.push([match[1]!, match[2]!.replace(/~1/g, '/').replace(/~0/g, '~')]);
    } else refsOf(inner, found);
  }
}

/**
 * The cut of `description` (GitHub's parsed description): its paths reduced to the operations of `operationIds`
 * (a path keeps its shared parameters), its components reduced to those the kept operations reach through `$ref`,
 * transitively; `info`, `servers` and `openapi` kept, everything else (tags, webhooks) dropped. Throws when an
 * operation is absent, so a renamed operation is seen rather than silently cut away.
 */
export function cutDescription(description: { [key: string]: Json }, operationIds: readonly string[]): { [key: string]: Json } {
  const wanted = new Set(operationIds);
  const paths: { [key: string]: Json } = {};
  const source = description['paths'] as { [path: string]: { [key: string]: Json } };
  for (const [path, item] of Object.entries(source)) {
    const kept: { [key: string]: Json } = {};
    for (const [key, operation] of Object.entries(item)) {
      const id = typeof operation === 'object' && operation !== null && !Array.isArray(operation) ? operation['operationId'] : undefined;
      if (typeof id === 'string' && wanted.has(id)) {
        kept[key] = operation;
        wanted.delete(id);
      }
    }
    if (Object.keys(kept).length === 0) continue;
    if (item['parameters'] !== undefined) kept['parameters'] = item['parameters'];
    paths[path] = kept;
  }
  if (wanted.size > 0) throw new Error(`GitHub's description has no operation ${[...wanted].join(', ')}`);
  const all = description['components'] as { [kind: string]: { [name: string]: Json } };
  const components: { [kind: string]: { [name: string]: Json } } = {};
  const queue: Array<[string, string]> = [];
  refsOf(paths, queue);
  while (queue.length > 0) {
    const [kind, name] = queue.pop()!;
    if (components[kind]?.[name] !== undefined) continue;
    const component = all[kind]?.[name];
    if (component === undefined) throw new Error(`GitHub's description has no component ${kind}/${name}`);
    (components[kind] ??= {})[name] = component;
    refsOf(component, queue);
  }
  return { openapi: description['openapi']!, info: description['info']!, servers: description['servers']!, paths, components };
}

/**
 * Writes the cut of GitHub's description to `operations` (by default the issues cut) in the temporary directory
 * (once per installed version of the package and list of operations: the file is named by both, written whole then
 * renamed into place) and answers its path; `undefined` when
 * `@octokit/openapi` is absent (the tests then skip, saying so with {@link GITHUB_ABSENT}).
 */
export function writeGithubIssuesCut(operations: readonly string[] = GITHUB_ISSUES_OPERATIONS): string | undefined {
  const file = githubDescriptionFile();
  if (file === undefined) return undefined;
  const { version } = JSON.parse(readFileSync(join(dirname(dirname(file)), 'package.json'), 'utf8')) as { version: string };
  const folder = join(tmpdir(), 'openapi-harness-github-issues-cut');
  const path = join(folder, `github-issues-${version}-${createHash('sha1').update(operations.join(',')).digest('hex').slice(0, 12)}.json`);
  if (existsSync(path)) return path;
  const cut = cutDescription(JSON.parse(readFileSync(file, 'utf8')) as { [key: string]: Json }, operations);
  mkdirSync(folder, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(cut));
  renameSync(partial, path);
  return path;
}
