import { defineIndependentCase } from '../independent-case.js';
import { GITHUB_ISSUES_FAULTS, GITHUB_ISSUES_SPEC } from './faults.js';
import { startGithubIssuesServer } from './github-issues-server.js';

defineIndependentCase(GITHUB_ISSUES_SPEC, (fault) => startGithubIssuesServer(fault === undefined ? {} : { fault }), GITHUB_ISSUES_FAULTS);
