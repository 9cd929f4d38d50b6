import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// An issues backend written from the text of a cut of GitHub's description (github-cut.ts) alone, as a backend
// engineer would write it from those pages: plain node:http, its own in-memory state and validation, no code shared
// with mock/ or conformance/. Every `{owner}/{repo}` names a repository (made on first use, names not case
// sensitive); issues and milestones are numbered per repository from 1 and reached by that `number`, comments and
// labels carry ids of their own; errors are GitHub's `basic-error` and, for a body that breaks its schema,
// `validation-error` with a 422. Each `GithubIssuesFault` is one realistic bug; `GithubIssuesChoices` decide the
// points the text leaves open (the rival server takes the other side of each).

/** One realistic bug to build into the server (none: the correct server). */
export type GithubIssuesFault =
  | 'issue-by-id'
  | 'color-with-hash'
  | 'label-drops-description'
  | 'label-update-ignores-color'
  | 'comment-delete-keeps'
  | 'milestone-delete-keeps'
  | 'issue-update-replaces'
  | 'state-filter-ignored'
  | 'per-page-ignored'
  | 'page-repeats'
  | 'closed-at-missing'
  | 'milestone-number-as-string'
  | 'title-not-required'
  | 'absent-comment-500'
  | 'absent-label-200'
  | 'comment-drops-body'
  | 'milestone-state-ignored'
  | 'label-create-200';

/**
 * The points the description leaves open, decided one way by the correct server (all `false`) and the other way by
 * the rival (all `true`).
 */
export interface GithubIssuesChoices {
  /** Optional members with no value left out of the record rather than sent as `null`. */
  omitNulls?: boolean;
  /** A JSON text that does not parse answered 422 (`validation-error`) rather than 400. */
  unparsableAs422?: boolean;
  /** An issue's comments listed newest first rather than oldest first (the text leaves the order open). */
  commentsNewestFirst?: boolean;
  /** An issue closed without a `state_reason` keeps none rather than `completed`. */
  noDefaultStateReason?: boolean;
  /** Pages without a `Link` header (reached by `page` alone) rather than with one. */
  noLinkHeader?: boolean;
  /** A label made without a colour gets one of its own, from its name, rather than `ededed`. */
  colourFromName?: boolean;
  /** A label's colour kept in lower case (hexadecimal digits have no case) rather than as sent. */
  lowerCaseColours?: boolean;
  /** A comment whose body is blank refused with 422 "Body cannot be blank" rather than kept. */
  blankCommentRefused?: boolean;
}

/** Options of {@link startGithubIssuesServer}. */
export interface GithubIssuesOptions {
  fault?: GithubIssuesFault;
  choices?: GithubIssuesChoices;
}

/** A running server: its base URL (a free port of 127.0.0.1, paths at its root) and how to stop it. */
export interface RunningGithubIssues {
  baseUrl: string;
  close(): Promise<void>;
}

interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

interface Milestone {
  id: number;
  number: number;
  title: string;
  state: 'open' | 'closed';
  description: string | null;
  due_on: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

interface Issue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: number[];
  assignees: string[];
  milestone: number | null;
  locked: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

interface Comment {
  id: number;
  issue: number;
  body: string;
  created_at: string;
  updated_at: string;
}

interface Repository {
  id: number;
  created_at: string;
  owner: string;
  name: string;
  issues: Map<number, Issue>;
  labels: Map<number, Label>;
  milestones: Map<number, Milestone>;
  comments: Map<number, Comment>;
  nextIssue: number;
  nextMilestone: number;
}

/** The one user of this server: the author of every record and its only assignable user. */
const LOGIN = 'octocat';
const DOCS = 'https://docs.github.com/rest/issues';
const HEX = /^[0-9a-fA-F]{6}$/;
const ORIGIN = 'https://api.github.invalid';

class Failure extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(String(body['message']));
  }
}

const notFound = (): Failure => new Failure(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
/** GitHub's 422: `validation-error` with one entry per refused member. */
const invalid = (resource: string, field: string, code: string, message?: string): Failure =>
  new Failure(422, { message: 'Validation Failed', documentation_url: DOCS, errors: [{ resource, field, code, ...(message === undefined ? {} : { message }) }] });

type Kind = 'string' | 'string?' | 'integer' | 'boolean' | 'confidence';

/** Whether each member of `object` that `kinds` names holds a value of its kind (`string?`: a string or `null`). */
function membersFit(object: Record<string, unknown>, kinds: Record<string, Kind>): boolean {
  return Object.entries(kinds).every(([name, kind]) => {
    const value = object[name];
    if (value === undefined) return true;
    if (kind === 'string?') return value === null || typeof value === 'string';
    if (kind === 'integer') return Number.isInteger(value);
    if (kind === 'confidence') return value === 'low' || value === 'medium' || value === 'high';
    return typeof value === kind;
  });
}

/** `text` as one URL path segment; a lone surrogate (a name sent as JSON may hold one) as U+FFFD. */
function segment(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
}

function user(): Record<string, unknown> {
  const url = `${ORIGIN}/users/${LOGIN}`;
  return {
    login: LOGIN,
    id: 1,
    node_id: 'MDQ6VXNlcjE=',
    avatar_url: `${ORIGIN}/avatars/${LOGIN}`,
    gravatar_id: '',
    url,
    html_url: `https://github.invalid/${LOGIN}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: 'User',
    site_admin: false,
  };
}

async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `page` and `per_page` as the shared parameters state: from 1, 30 a page by default, at most 100. */
function paging(query: URLSearchParams, fault: GithubIssuesFault | undefined): { page: number; perPage: number } {
  const number = (name: string, fallback: number): number => {
    const raw = query.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw)) throw invalid('Search', name, 'invalid', `${name} must be a positive integer`);
    return Number(raw);
  };
  const page = Math.max(1, number('page', 1));
  const asked = number('per_page', 30);
  const perPage = fault === 'per-page-ignored' ? 30 : Math.min(100, Math.max(1, asked));
  return { page: fault === 'page-repeats' ? 1 : page, perPage };
}

/**
 * Starts the issues server on a free port of 127.0.0.1. No credentials are asked (the cut declares no security
 * scheme); the repository of any `{owner}/{repo}` exists.
 */
export async function startGithubIssuesServer(options: GithubIssuesOptions = {}): Promise<RunningGithubIssues> {
  const { fault } = options;
  const choices = options.choices ?? {};
  const repositories = new Map<string, Repository>();
  let nextId = 1000;

  const repositoryOf = (owner: string, name: string): Repository => {
    const key = `${owner.toLowerCase()}/${name.toLowerCase()}`;
    let held = repositories.get(key);
    if (held === undefined) {
      held = { id: nextId++, created_at: now(), owner, name, issues: new Map(), labels: new Map(), milestones: new Map(), comments: new Map(), nextIssue: 1, nextMilestone: 1 };
      repositories.set(key, held);
    }
    return held;
  };

  const base = (repo: Repository): string => `${ORIGIN}/repos/${segment(repo.owner)}/${segment(repo.name)}`;
  const site = (repo: Repository): string => `https://github.invalid/${segment(repo.owner)}/${segment(repo.name)}`;
  const optional = (name: string, value: unknown): Record<string, unknown> => (value === null && choices.omitNulls === true ? {} : { [name]: value });

  /** The repository as `full-repository` states it: every required member, the counts this server keeps. */
  const repositoryView = (repo: Repository): Record<string, unknown> => {
    const api = base(repo);
    const open = [...repo.issues.values()].filter((issue) => issue.state === 'open').length;
    const templated: Record<string, string> = {
      archive_url: '/{archive_format}{/ref}', assignees_url: '/assignees{/user}', blobs_url: '/git/blobs{/sha}', branches_url: '/branches{/branch}',
      collaborators_url: '/collaborators{/collaborator}', comments_url: '/comments{/number}', commits_url: '/commits{/sha}', compare_url: '/compare/{base}...{head}',
      contents_url: '/contents/{+path}', git_commits_url: '/git/commits{/sha}', git_refs_url: '/git/refs{/sha}', git_tags_url: '/git/tags{/sha}',
      issue_comment_url: '/issues/comments{/number}', issue_events_url: '/issues/events{/number}', issues_url: '/issues{/number}', keys_url: '/keys{/key_id}',
      labels_url: '/labels{/name}', milestones_url: '/milestones{/number}', notifications_url: '/notifications{?since,all,participating}', pulls_url: '/pulls{/number}',
      releases_url: '/releases{/id}', statuses_url: '/statuses/{sha}', trees_url: '/git/trees{/sha}',
    };
    const plain = ['contributors', 'deployments', 'downloads', 'events', 'forks', 'hooks', 'languages', 'merges', 'stargazers', 'subscribers', 'subscription', 'tags', 'teams'];
    return {
      id: repo.id,
      node_id: Buffer.from(`Repository${repo.id}`).toString('base64'),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: user(),
      private: false,
      html_url: site(repo),
      description: null,
      fork: false,
      url: api,
      ...Object.fromEntries(Object.entries(templated).map(([name, suffix]) => [name, `${api}${suffix}`])),
      ...Object.fromEntries(plain.map((name) => [`${name}_url`, `${api}/${name}`])),
      git_url: `git://github.invalid/${repo.owner}/${repo.name}.git`,
      ssh_url: `git@github.invalid:${repo.owner}/${repo.name}.git`,
      clone_url: `${site(repo)}.git`,
      svn_url: site(repo),
      mirror_url: null,
      homepage: null,
      language: null,
      forks: 0,
      forks_count: 0,
      stargazers_count: 0,
      watchers: 0,
      watchers_count: 0,
      size: 0,
      default_branch: 'main',
      open_issues: open,
      open_issues_count: open,
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_discussions: false,
      archived: false,
      disabled: false,
      license: null,
      pushed_at: repo.created_at,
      created_at: repo.created_at,
      updated_at: repo.created_at,
      network_count: 0,
      subscribers_count: 0,
    };
  };

  const labelView = (repo: Repository, label: Label): Record<string, unknown> => ({
    id: label.id,
    node_id: Buffer.from(`Label${label.id}`).toString('base64'),
    url: `${base(repo)}/labels/${segment(label.name)}`,
    name: label.name,
    description: fault === 'label-drops-description' ? null : label.description,
    color: fault === 'color-with-hash' ? `#${label.color}` : label.color,
    default: false,
  });

  const milestoneView = (repo: Repository, milestone: Milestone): Record<string, unknown> => {
    const issues = [...repo.issues.values()].filter((issue) => issue.milestone === milestone.number);
    return {
      url: `${base(repo)}/milestones/${milestone.number}`,
      html_url: `${site(repo)}/milestone/${milestone.number}`,
      labels_url: `${base(repo)}/milestones/${milestone.number}/labels`,
      id: milestone.id,
      node_id: Buffer.from(`Milestone${milestone.id}`).toString('base64'),
      number: fault === 'milestone-number-as-string' ? String(milestone.number) : milestone.number,
      state: milestone.state,
      title: milestone.title,
      description: milestone.description,
      creator: user(),
      open_issues: issues.filter((issue) => issue.state === 'open').length,
      closed_issues: issues.filter((issue) => issue.state === 'closed').length,
      created_at: milestone.created_at,
      updated_at: milestone.updated_at,
      closed_at: milestone.closed_at,
      due_on: milestone.due_on,
    };
  };

  const issueView = (repo: Repository, issue: Issue): Record<string, unknown> => {
    const url = `${base(repo)}/issues/${issue.number}`;
    const milestone = issue.milestone === null ? undefined : repo.milestones.get(issue.milestone);
    return {
      id: issue.id,
      node_id: Buffer.from(`Issue${issue.id}`).toString('base64'),
      url,
      repository_url: base(repo),
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `${site(repo)}/issues/${issue.number}`,
      number: issue.number,
      state: issue.state,
      ...optional('state_reason', issue.state_reason),
      title: issue.title,
      ...optional('body', issue.body),
      user: user(),
      labels: issue.labels.flatMap((id) => {
        const label = repo.labels.get(id);
        return label === undefined ? [] : [labelView(repo, label)];
      }),
      assignee: issue.assignees.length > 0 ? user() : null,
      assignees: issue.assignees.map(() => user()),
      milestone: milestone === undefined ? null : milestoneView(repo, milestone),
      locked: issue.locked,
      comments: [...repo.comments.values()].filter((comment) => comment.issue === issue.number).length,
      ...(fault === 'closed-at-missing' ? {} : { closed_at: issue.closed_at }),
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      author_association: 'OWNER',
    };
  };

  const commentView = (repo: Repository, comment: Comment): Record<string, unknown> => ({
    id: comment.id,
    node_id: Buffer.from(`IssueComment${comment.id}`).toString('base64'),
    url: `${base(repo)}/issues/comments/${comment.id}`,
    html_url: `${site(repo)}/issues/${comment.issue}#issuecomment-${comment.id}`,
    issue_url: `${base(repo)}/issues/${comment.issue}`,
    ...(fault === 'comment-drops-body' ? {} : { body: comment.body }),
    user: user(),
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: 'OWNER',
  });

  const defaultColour = (name: string): string => (choices.colourFromName === true ? createHash('sha1').update(name).digest('hex').slice(0, 6) : 'ededed');

  const labelNamed = (repo: Repository, name: string): Label | undefined => {
    const key = name.toLowerCase();
    return [...repo.labels.values()].find((label) => label.name.toLowerCase() === key);
  };

  /** A label's fields from a create or update body; `create`: `name` required. */
  const labelFields = (body: unknown, create: boolean): { name?: string; color?: string; description?: string } => {
    if (!isRecord(body)) throw invalid('Label', 'body', 'invalid', 'The body must be an object');
    const nameKey = create ? 'name' : 'new_name';
    const fields: { name?: string; color?: string; description?: string } = {};
    const name = body[nameKey];
    if (name === undefined) {
      if (create) throw invalid('Label', 'name', 'missing_field');
    } else {
      if (typeof name !== 'string' || name.length === 0) throw invalid('Label', 'name', 'invalid');
      fields.name = name;
    }
    if (body['color'] !== undefined) {
      // "The hexadecimal color code for the label, without the leading #."
      if (typeof body['color'] !== 'string' || !HEX.test(body['color'])) throw invalid('Label', 'color', 'invalid');
      fields.color = choices.lowerCaseColours === true ? body['color'].toLowerCase() : body['color'];
    }
    if (body['description'] !== undefined) {
      // "A short description of the label. Must be 100 characters or fewer."
      if (typeof body['description'] !== 'string' || [...body['description']].length > 100) throw invalid('Label', 'description', 'invalid');
      fields.description = body['description'];
    }
    return fields;
  };

  const addLabel = (repo: Repository, name: string): Label => {
    const held = labelNamed(repo, name);
    if (held !== undefined) return held;
    const label: Label = { id: nextId++, name, color: defaultColour(name), description: null };
    repo.labels.set(label.id, label);
    return label;
  };

  /** The label ids of an issue body's `labels` (names or objects with a `name`; an object's own id is not trusted). */
  const labelsOf = (repo: Repository, value: unknown, resource: string): number[] => {
    if (!Array.isArray(value)) throw invalid(resource, 'labels', 'invalid');
    const ids: number[] = [];
    for (const item of value) {
      const fits = isRecord(item) && membersFit(item, { id: 'integer', node_id: 'string', url: 'string', name: 'string', description: 'string?', color: 'string?', default: 'boolean', rationale: 'string', suggest: 'boolean', confidence: 'confidence' });
      if (!(typeof item === 'string' || fits)) throw invalid(resource, 'labels', 'invalid', 'Each label is a name or a label object');
      const name = typeof item === 'string' ? item : typeof item['name'] === 'string' ? item['name'] : undefined;
      // An object without a name stands for the repository's label with its id, if any; another is dropped.
      const id = name === undefined ? (typeof item !== 'string' && typeof item['id'] === 'number' && repo.labels.has(item['id']) ? item['id'] : undefined) : addLabel(repo, name).id;
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids;
  };

  const assigneesOf = (value: unknown): string[] => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid('Issue', 'assignees', 'invalid');
    const known = (value as string[]).filter((login) => login.toLowerCase() === LOGIN);
    return known.length > 0 ? [LOGIN] : [];
  };

  /** A milestone `number` (an integer, or its decimal text) or `null`; 422 for one the repository lacks. */
  const milestoneOf = (repo: Repository, value: unknown): number | null => {
    if (value === null) return null;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(number) || !repo.milestones.has(number)) throw invalid('Issue', 'milestone', 'invalid', 'No such milestone');
    return number;
  };

  const titleOf = (value: unknown): string => {
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    if (typeof value !== 'string') throw invalid('Issue', 'title', 'invalid');
    return value;
  };

  const issueAt = (repo: Repository, raw: string): Issue => {
    if (!/^\d+$/.test(raw)) throw notFound();
    const wanted = Number(raw);
    const issue = fault === 'issue-by-id' ? [...repo.issues.values()].find((one) => one.id === wanted) : repo.issues.get(wanted);
    if (issue === undefined) throw notFound();
    return issue;
  };

  const milestoneAt = (repo: Repository, raw: string): Milestone => {
    const milestone = /^\d+$/.test(raw) ? repo.milestones.get(Number(raw)) : undefined;
    if (milestone === undefined) throw notFound();
    return milestone;
  };

  const commentAt = (repo: Repository, raw: string): Comment => {
    const comment = /^\d+$/.test(raw) ? repo.comments.get(Number(raw)) : undefined;
    if (comment === undefined) {
      if (fault === 'absent-comment-500') throw new Error('comment lookup failed');
      throw notFound();
    }
    return comment;
  };

  const labelAt = (repo: Repository, name: string): Label => {
    const label = labelNamed(repo, name);
    if (label === undefined) {
      if (fault === 'absent-label-200') return { id: 0, name, color: 'ededed', description: null };
      throw notFound();
    }
    return label;
  };

  /** One page of `items` and the `Link` header that leads to the next and last pages. */
  const page = <T>(response: ServerResponse, url: URL, items: T[]): T[] => {
    const { page: number, perPage } = paging(url.searchParams, fault);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    if (number < last && choices.noLinkHeader !== true) {
      const at = (value: number): string => {
        const next = new URL(url.toString());
        next.searchParams.set('page', String(value));
        return `<${next.toString()}>`;
      };
      response.setHeader('link', `${at(number + 1)}; rel="next", ${at(last)}; rel="last"`);
    }
    return items.slice((number - 1) * perPage, number * perPage);
  };

  const sortBy = <T>(items: T[], key: (item: T) => string | number, descending: boolean): T[] =>
    [...items].sort((left, right) => {
      const [a, b] = [key(left), key(right)];
      const order = a < b ? -1 : a > b ? 1 : 0;
      return descending ? -order : order;
    });

  const enumQuery = (query: URLSearchParams, name: string, allowed: readonly string[], fallback: string): string => {
    const raw = query.get(name) ?? fallback;
    if (!allowed.includes(raw)) throw invalid('Search', name, 'invalid', `${name} is one of ${allowed.join(', ')}`);
    return raw;
  };

  const listIssues = (repo: Repository, url: URL, response: ServerResponse): unknown[] => {
    const query = url.searchParams;
    const state = enumQuery(query, 'state', ['open', 'closed', 'all'], 'open');
    const sort = enumQuery(query, 'sort', ['created', 'updated', 'comments'], 'created');
    const direction = enumQuery(query, 'direction', ['asc', 'desc'], 'desc');
    const since = query.get('since');
    if (since !== null && !isDateTime(since)) throw invalid('Search', 'since', 'invalid');
    const milestone = query.get('milestone');
    const assignee = query.get('assignee');
    const labels = query.get('labels')?.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0) ?? [];
    const creator = query.get('creator');
    const mentioned = query.get('mentioned');
    const type = query.get('type');
    const counted = (issue: Issue): number => [...repo.comments.values()].filter((comment) => comment.issue === issue.number).length;
    const kept = [...repo.issues.values()].filter((issue) => {
      if (fault !== 'state-filter-ignored' && state !== 'all' && issue.state !== state) return false;
      if (since !== null && Date.parse(issue.updated_at) < Date.parse(since)) return false;
      if (milestone !== null && !(milestone === '*' ? issue.milestone !== null : milestone === 'none' ? issue.milestone === null : String(issue.milestone) === milestone)) return false;
      if (assignee !== null && !(assignee === '*' ? issue.assignees.length > 0 : assignee === 'none' ? issue.assignees.length === 0 : issue.assignees.includes(assignee.toLowerCase()))) return false;
      if (creator !== null && creator.toLowerCase() !== LOGIN) return false;
      if (mentioned !== null && !(issue.body ?? '').toLowerCase().includes(`@${mentioned.toLowerCase()}`)) return false;
      // No issue of this server has a type: `none` keeps them all, a type's name (or `*`) none.
      if (type !== null && type !== 'none') return false;
      const names = issue.labels.map((id) => repo.labels.get(id)?.name.toLowerCase());
      return labels.every((name) => names.includes(name));
    });
    const key = sort === 'comments' ? (issue: Issue): number => counted(issue) : sort === 'updated' ? (issue: Issue): string => issue.updated_at : (issue: Issue): number => issue.number;
    return page(response, url, sortBy(kept, key, direction === 'desc')).map((issue) => issueView(repo, issue));
  };

  /** Issue fields exist only for organisations' repositories with the feature on: well-formed values are "silently dropped". */
  const checkFieldValues = (fieldValues: unknown): void => {
    const fieldValue = (value: unknown): boolean => typeof value === 'string' || typeof value === 'number' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (fieldValues !== undefined && !(Array.isArray(fieldValues) && fieldValues.every((item) => isRecord(item) && Number.isInteger(item['field_id']) && fieldValue(item['value']) && Object.keys(item).every((key) => key === 'field_id' || key === 'value')))) throw invalid('Issue', 'issue_field_values', 'invalid');
  };

  const createIssue = (repo: Repository, body: unknown): Issue => {
    if (!isRecord(body)) throw invalid('Issue', 'body', 'invalid', 'The body must be an object');
    if (body['title'] === undefined && fault !== 'title-not-required') throw invalid('Issue', 'title', 'missing_field');
    const title = body['title'] === undefined ? '' : titleOf(body['title']);
    if (body['body'] !== undefined && typeof body['body'] !== 'string') throw invalid('Issue', 'body', 'invalid');
    const assignees = body['assignees'] === undefined ? [] : assigneesOf(body['assignees']);
    if (body['assignee'] !== undefined && body['assignee'] !== null) {
      if (typeof body['assignee'] !== 'string') throw invalid('Issue', 'assignee', 'invalid');
      assignees.push(...assigneesOf([body['assignee']]).filter((login) => !assignees.includes(login)));
    }
    const milestone = body['milestone'] === undefined ? null : milestoneOf(repo, body['milestone']);
    const labels = body['labels'] === undefined ? [] : labelsOf(repo, body['labels'], 'Issue');
    if (body['type'] !== undefined && body['type'] !== null && typeof body['type'] !== 'string') throw invalid('Issue', 'type', 'invalid');
    checkFieldValues(body['issue_field_values']);
    const stamp = now();
    const issue: Issue = {
      id: nextId++,
      number: repo.nextIssue++,
      title,
      body: typeof body['body'] === 'string' ? body['body'] : null,
      state: 'open',
      state_reason: null,
      labels,
      assignees,
      milestone,
      locked: false,
      created_at: stamp,
      updated_at: stamp,
      closed_at: null,
    };
    repo.issues.set(issue.number, issue);
    return issue;
  };

  const updateIssue = (repo: Repository, issue: Issue, body: unknown): Issue => {
    if (!isRecord(body)) throw invalid('Issue', 'body', 'invalid', 'The body must be an object');
    const next: Issue = fault === 'issue-update-replaces' ? { ...issue, body: null, labels: [], assignees: [], milestone: null } : { ...issue };
    if (body['title'] !== undefined && body['title'] !== null) next.title = titleOf(body['title']);
    if (body['body'] !== undefined) {
      if (body['body'] !== null && typeof body['body'] !== 'string') throw invalid('Issue', 'body', 'invalid');
      next.body = body['body'];
    }
    const reasons = ['completed', 'not_planned', 'duplicate', 'reopened'];
    const reason = body['state_reason'];
    if (reason !== undefined && reason !== null && !reasons.includes(reason as string)) throw invalid('Issue', 'state_reason', 'invalid');
    if (body['state'] !== undefined) {
      if (body['state'] !== 'open' && body['state'] !== 'closed') throw invalid('Issue', 'state', 'invalid');
      if (body['state'] !== issue.state) {
        next.state = body['state'];
        next.closed_at = body['state'] === 'closed' ? now() : null;
        // "Ignored unless `state` is changed."
        next.state_reason = typeof reason === 'string' ? reason : choices.noDefaultStateReason === true ? null : body['state'] === 'closed' ? 'completed' : 'reopened';
      }
    }
    if (body['duplicate_issue_id'] !== undefined && !Number.isInteger(body['duplicate_issue_id'])) throw invalid('Issue', 'duplicate_issue_id', 'invalid');
    checkFieldValues(body['issue_field_values']);
    const type = body['type'];
    if (type !== undefined && type !== null && typeof type !== 'string' && !(isRecord(type) && membersFit(type, { value: 'string?', rationale: 'string', suggest: 'boolean', confidence: 'confidence' }))) throw invalid('Issue', 'type', 'invalid');
    if (body['milestone'] !== undefined) next.milestone = milestoneOf(repo, body['milestone']);
    if (body['labels'] !== undefined) next.labels = labelsOf(repo, body['labels'], 'Issue');
    if (body['assignees'] !== undefined) next.assignees = assigneesOf(body['assignees']);
    if (body['assignee'] !== undefined) next.assignees = body['assignee'] === null ? [] : assigneesOf([body['assignee']]);
    next.updated_at = now();
    repo.issues.set(issue.number, next);
    return next;
  };

  const milestoneFields = (body: unknown, create: boolean): Partial<Milestone> => {
    if (!isRecord(body)) throw invalid('Milestone', 'body', 'invalid', 'The body must be an object');
    const fields: Partial<Milestone> = {};
    if (body['title'] === undefined) {
      if (create) throw invalid('Milestone', 'title', 'missing_field');
    } else {
      if (typeof body['title'] !== 'string') throw invalid('Milestone', 'title', 'invalid');
      fields.title = body['title'];
    }
    if (body['state'] !== undefined) {
      if (body['state'] !== 'open' && body['state'] !== 'closed') throw invalid('Milestone', 'state', 'invalid');
      if (fault !== 'milestone-state-ignored') fields.state = body['state'];
    }
    if (body['description'] !== undefined) {
      if (typeof body['description'] !== 'string') throw invalid('Milestone', 'description', 'invalid');
      fields.description = body['description'];
    }
    if (body['due_on'] !== undefined) {
      if (!isDateTime(body['due_on'])) throw invalid('Milestone', 'due_on', 'invalid');
      fields.due_on = body['due_on'];
    }
    return fields;
  };

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<{ status: number; body?: unknown; location?: string }> => {
    // Links to other pages name the address the client used.
    const host = /^[A-Za-z0-9.:[\]-]+$/.test(request.headers.host ?? '') ? request.headers.host! : 'localhost';
    const url = new URL(request.url ?? '/', `http://${host}`);
    const method = request.method ?? 'GET';
    const decode = (segment: string): string => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw notFound();
      }
    };
    const segments = url.pathname.split('/').slice(1).map(decode);
    const text = await bodyText(request);
    if (segments[0] !== 'repos' || segments.length < 3 || segments[1] === '' || segments[2] === '') throw notFound();
    const repo = repositoryOf(segments[1]!, segments[2]!);
    const rest = segments.slice(3);
    const json = (): unknown => {
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        if (choices.unparsableAs422 === true) throw invalid('Request', 'body', 'invalid', 'Problems parsing JSON');
        throw new Failure(400, { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' });
      }
    };
    // An update with no body at all changes nothing; a body that is not an object is refused.
    const bodyOrEmpty = (): unknown => (text.trim() === '' ? {} : json());
    const at = (...parts: string[]): boolean => parts.length === rest.length && parts.every((part, index) => part === '*' || part === rest[index]);
    const sameMethod = (wanted: string): boolean => method === wanted;

    if (at() && sameMethod('GET')) return { status: 200, body: repositoryView(repo) };
    if (at('issues') && sameMethod('GET')) return { status: 200, body: listIssues(repo, url, response) };
    if (at('issues') && sameMethod('POST')) {
      const issue = createIssue(repo, json());
      return { status: 201, body: issueView(repo, issue), location: `${base(repo)}/issues/${issue.number}` };
    }
    if (at('issues', 'comments') && sameMethod('GET')) {
      const query = url.searchParams;
      const sort = enumQuery(query, 'sort', ['created', 'updated'], 'created');
      const direction = query.get('direction');
      if (direction !== null && direction !== 'asc' && direction !== 'desc') throw invalid('Search', 'direction', 'invalid');
      const since = query.get('since');
      if (since !== null && !isDateTime(since)) throw invalid('Search', 'since', 'invalid');
      const kept = [...repo.comments.values()].filter((comment) => since === null || Date.parse(comment.updated_at) >= Date.parse(since));
      const sorted = sortBy(kept, (comment) => (sort === 'updated' ? `${comment.updated_at}:${String(comment.id).padStart(12, '0')}` : comment.id), direction === 'desc');
      return { status: 200, body: page(response, url, sorted).map((comment) => commentView(repo, comment)) };
    }
    if (at('issues', 'comments', '*')) {
      const comment = commentAt(repo, rest[2]!);
      if (sameMethod('GET')) return { status: 200, body: commentView(repo, comment) };
      if (sameMethod('PATCH')) {
        const body = json();
        if (!isRecord(body) || typeof body['body'] !== 'string') throw invalid('IssueComment', 'body', isRecord(body) && body['body'] === undefined ? 'missing_field' : 'invalid');
        if (choices.blankCommentRefused === true && body['body'].trim() === '') throw invalid('IssueComment', 'body', 'custom', 'Body cannot be blank');
        comment.body = body['body'];
        comment.updated_at = now();
        return { status: 200, body: commentView(repo, comment) };
      }
      if (sameMethod('DELETE')) {
        if (fault !== 'comment-delete-keeps') repo.comments.delete(comment.id);
        return { status: 204 };
      }
    }
    if (at('issues', '*')) {
      const issue = issueAt(repo, rest[1]!);
      if (sameMethod('GET')) return { status: 200, body: issueView(repo, issue) };
      if (sameMethod('PATCH')) return { status: 200, body: issueView(repo, updateIssue(repo, issue, json())) };
    }
    if (at('issues', '*', 'comments')) {
      const issue = issueAt(repo, rest[1]!);
      if (sameMethod('GET')) {
        const since = url.searchParams.get('since');
        if (since !== null && !isDateTime(since)) throw invalid('Search', 'since', 'invalid');
        const kept = [...repo.comments.values()].filter((comment) => comment.issue === issue.number && (since === null || Date.parse(comment.updated_at) >= Date.parse(since)));
        return { status: 200, body: page(response, url, sortBy(kept, (comment) => comment.id, choices.commentsNewestFirst === true)).map((comment) => commentView(repo, comment)) };
      }
      if (sameMethod('POST')) {
        const body = json();
        if (!isRecord(body) || typeof body['body'] !== 'string') throw invalid('IssueComment', 'body', isRecord(body) && body['body'] === undefined ? 'missing_field' : 'invalid');
        if (choices.blankCommentRefused === true && body['body'].trim() === '') throw invalid('IssueComment', 'body', 'custom', 'Body cannot be blank');
        const stamp = now();
        const comment: Comment = { id: nextId++, issue: issue.number, body: body['body'], created_at: stamp, updated_at: stamp };
        repo.comments.set(comment.id, comment);
        return { status: 201, body: commentView(repo, comment), location: `${base(repo)}/issues/comments/${comment.id}` };
      }
    }
    if (at('issues', '*', 'labels')) {
      const issue = issueAt(repo, rest[1]!);
      const shown = (): unknown[] => issue.labels.flatMap((id) => {
        const label = repo.labels.get(id);
        return label === undefined ? [] : [labelView(repo, label)];
      });
      if (sameMethod('GET')) return { status: 200, body: page(response, url, shown()) };
      if (sameMethod('POST') || sameMethod('PUT')) {
        // "You can also pass an array of labels directly" (and, to set, a single label as a string).
        const body = json();
        const list = Array.isArray(body) ? body : typeof body === 'string' && sameMethod('PUT') ? [body] : isRecord(body) ? body['labels'] : undefined;
        if (list === undefined && sameMethod('PUT')) issue.labels = [];
        else {
          if (!Array.isArray(list) || (list.length === 0 && sameMethod('POST'))) throw invalid('Label', 'labels', 'invalid', 'labels is a non-empty list of label names');
          const ids = labelsOf(repo, list, 'Label');
          issue.labels = sameMethod('PUT') ? ids : [...issue.labels, ...ids.filter((id) => !issue.labels.includes(id))];
        }
        issue.updated_at = now();
        return { status: 200, body: shown() };
      }
    }
    if (at('issues', '*', 'labels', '*') && sameMethod('DELETE')) {
      const issue = issueAt(repo, rest[1]!);
      const label = labelNamed(repo, rest[3]!);
      if (label === undefined || !issue.labels.includes(label.id)) throw notFound();
      issue.labels = issue.labels.filter((id) => id !== label.id);
      issue.updated_at = now();
      return { status: 200, body: issue.labels.flatMap((id) => (repo.labels.has(id) ? [labelView(repo, repo.labels.get(id)!)] : [])) };
    }
    if (at('labels') && sameMethod('GET')) return { status: 200, body: page(response, url, sortBy([...repo.labels.values()], (label) => label.id, false)).map((label) => labelView(repo, label)) };
    if (at('labels') && sameMethod('POST')) {
      const fields = labelFields(json(), true);
      if (labelNamed(repo, fields.name!) !== undefined) throw invalid('Label', 'name', 'already_exists');
      const label: Label = { id: nextId++, name: fields.name!, color: fields.color ?? defaultColour(fields.name!), description: fields.description ?? null };
      repo.labels.set(label.id, label);
      return { status: fault === 'label-create-200' ? 200 : 201, body: labelView(repo, label), location: `${base(repo)}/labels/${segment(label.name)}` };
    }
    if (at('labels', '*')) {
      const label = labelAt(repo, rest[1]!);
      if (sameMethod('GET')) return { status: 200, body: labelView(repo, label) };
      if (sameMethod('PATCH')) {
        const fields = labelFields(bodyOrEmpty(), false);
        if (fields.name !== undefined) {
          const other = labelNamed(repo, fields.name);
          if (other !== undefined && other.id !== label.id) throw invalid('Label', 'name', 'already_exists');
          label.name = fields.name;
        }
        if (fields.color !== undefined && fault !== 'label-update-ignores-color') label.color = fields.color;
        if (fields.description !== undefined) label.description = fields.description;
        return { status: 200, body: labelView(repo, label) };
      }
      if (sameMethod('DELETE')) {
        repo.labels.delete(label.id);
        for (const issue of repo.issues.values()) issue.labels = issue.labels.filter((id) => id !== label.id);
        return { status: 204 };
      }
    }
    if (at('milestones') && sameMethod('GET')) {
      const query = url.searchParams;
      const state = enumQuery(query, 'state', ['open', 'closed', 'all'], 'open');
      const sort = enumQuery(query, 'sort', ['due_on', 'completeness'], 'due_on');
      const direction = enumQuery(query, 'direction', ['asc', 'desc'], 'asc');
      const kept = [...repo.milestones.values()].filter((milestone) => fault === 'state-filter-ignored' || state === 'all' || milestone.state === state);
      const completeness = (milestone: Milestone): number => {
        const issues = [...repo.issues.values()].filter((issue) => issue.milestone === milestone.number);
        return issues.length === 0 ? 0 : issues.filter((issue) => issue.state === 'closed').length / issues.length;
      };
      // Milestones without a due date come after those with one, whatever the direction.
      const key = sort === 'completeness' ? completeness : (milestone: Milestone): string => milestone.due_on ?? (direction === 'asc' ? '~' : '');
      return { status: 200, body: page(response, url, sortBy(kept, key, direction === 'desc')).map((milestone) => milestoneView(repo, milestone)) };
    }
    if (at('milestones') && sameMethod('POST')) {
      const fields = milestoneFields(json(), true);
      const stamp = now();
      const state = fields.state ?? 'open';
      const milestone: Milestone = {
        id: nextId++,
        number: repo.nextMilestone++,
        title: fields.title!,
        state,
        description: fields.description ?? null,
        due_on: fields.due_on ?? null,
        created_at: stamp,
        updated_at: stamp,
        closed_at: state === 'closed' ? stamp : null,
      };
      repo.milestones.set(milestone.number, milestone);
      return { status: 201, body: milestoneView(repo, milestone), location: `${base(repo)}/milestones/${milestone.number}` };
    }
    if (at('milestones', '*')) {
      const milestone = milestoneAt(repo, rest[1]!);
      if (sameMethod('GET')) return { status: 200, body: milestoneView(repo, milestone) };
      if (sameMethod('PATCH')) {
        const fields = milestoneFields(bodyOrEmpty(), false);
        const stamp = now();
        if (fields.state !== undefined && fields.state !== milestone.state) milestone.closed_at = fields.state === 'closed' ? stamp : null;
        Object.assign(milestone, fields, { updated_at: stamp });
        return { status: 200, body: milestoneView(repo, milestone) };
      }
      if (sameMethod('DELETE')) {
        if (fault !== 'milestone-delete-keeps') {
          repo.milestones.delete(milestone.number);
          for (const issue of repo.issues.values()) if (issue.milestone === milestone.number) issue.milestone = null;
        }
        return { status: 204 };
      }
    }
    throw notFound();
  };

  const server = createServer((request, response) => {
    const send = (status: number, body?: unknown): void => {
      if (body === undefined) {
        response.writeHead(status).end();
        return;
      }
      const bytes = Buffer.from(JSON.stringify(body));
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length }).end(bytes);
    };
    route(request, response).then(
      ({ status, body, location }) => {
        if (location !== undefined) response.setHeader('location', location);
        send(status, body);
      },
      (error: unknown) => {
        response.removeHeader('link');
        if (error instanceof Failure) send(error.status, error.body);
        else send(500, { message: 'Server Error', documentation_url: DOCS });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
