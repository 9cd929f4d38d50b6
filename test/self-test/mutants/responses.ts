import { ERRORS, always, editJson, type JsonObject, type Mutant } from '../mutant-kit.js';

/** Mutants of every response: Error shape, status and content type (seed, Errors; What the service does). */
export const RESPONSES_MUTANTS: Mutant[] = [
  {
    name: 'error-status-400',
    fault: 'Every Error body says `status: 400`, whatever the HTTP status (401, 404, ...).',
    seedRule: `${ERRORS} (the status field equals the HTTP status code)`,
    caughtBy: ['responses.conformance', 'auth.listPets', 'getPet.not-found'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? editJson(response, (error) => ({ ...(error as JsonObject), status: 400 })) : response;
    }),
  },
  {
    name: 'error-without-code',
    fault: 'Error bodies carry no `code`.',
    seedRule: 'Resources › Error (code is required)',
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? editJson(response, (error) => ({ ...(error as JsonObject), code: undefined })) : response;
    }),
  },
  {
    name: 'text-plain',
    fault: 'Every response is sent as `Content-Type: text/plain`.',
    seedRule: `What the service does; ${ERRORS} (content type application/json)`,
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return { ...response, headers: { ...response.headers, 'content-type': 'text/plain' } };
    }),
  },
  {
    name: 'problem-json-errors',
    fault: 'Error responses are sent as `Content-Type: application/problem+json`.',
    seedRule: `${ERRORS} (content type application/json)`,
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? { ...response, headers: { ...response.headers, 'content-type': 'application/problem+json' } } : response;
    }),
  },
];
