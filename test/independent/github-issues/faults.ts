import type { GeneratedSpec, KilledFault } from '../independent-target.js';
import { GITHUB_ABSENT, writeGithubIssuesCut } from './github-cut.js';
import type { GithubIssuesFault } from './github-issues-server.js';

// A cut of GitHub's issues API (issues, their comments and labels, the repository's labels and milestones, written
// from `@octokit/openapi` at test time) implemented from its text alone: numbers per repository, `validation-error`
// 422s, colours without their `#`. Each fault is one realistic bug, rejected by the check named beside it.
/** The description the server implements: the cut, written from the installed package (absent: the tests skip). */
export const GITHUB_ISSUES_SPEC: GeneratedSpec = { generated: 'github-issues-cut', file: writeGithubIssuesCut, absent: GITHUB_ABSENT };

/** Every fault of the issues server with its killing check. */
export const GITHUB_ISSUES_FAULTS: readonly KilledFault<GithubIssuesFault>[] = [
  { fault: 'issue-by-id', killedBy: 'issues/get.found' },
  { fault: 'color-with-hash', killedBy: 'issues/create-label.echo' },
  { fault: 'label-drops-description', killedBy: 'issues/create-label.echo' },
  { fault: 'label-update-ignores-color', killedBy: 'issues/update-label.persisted' },
  { fault: 'comment-delete-keeps', killedBy: 'issues/delete-comment.gone' },
  { fault: 'milestone-delete-keeps', killedBy: 'issues/delete-milestone.gone' },
  { fault: 'issue-update-replaces', killedBy: 'issues/update.persisted' },
  { fault: 'state-filter-ignored', killedBy: 'issues/list-milestones.state-filter' },
  { fault: 'per-page-ignored', killedBy: 'issues/list-labels-for-repo.limit' },
  { fault: 'page-repeats', killedBy: 'issues/list-labels-for-repo.pages' },
  { fault: 'closed-at-missing', killedBy: 'issues/create.echo' },
  { fault: 'milestone-number-as-string', killedBy: 'issues/get-milestone.found' },
  { fault: 'title-not-required', killedBy: 'issues/create.required-fields' },
  { fault: 'absent-comment-500', killedBy: 'issues/get-comment.not-found' },
  { fault: 'absent-label-200', killedBy: 'issues/get-label.not-found' },
  { fault: 'comment-drops-body', killedBy: 'issues/create-comment.echo' },
  { fault: 'milestone-state-ignored', killedBy: 'issues/create-milestone.echo' },
  { fault: 'label-create-200', killedBy: 'issues/create-label.client-id' },
];
