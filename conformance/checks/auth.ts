import fc from 'fast-check';
import type { OperationModel } from '../../model/model.js';
import { badCredentials, credentialVariants, validCredentials, type BadCredentials } from '../arbitraries/credentials.js';
import type { Check } from './check.js';
import { expectNothingCreated } from './population.js';
import { sampleRequests, writes, type SampleRequest } from './requests.js';
import { NotRun } from '../arbitraries/bounded.js';

/**
 * Whether bad credentials for the operation's first scheme are in fact valid for another alternative it accepts
 * (OpenAPI `security: [{api_key: []}, {petstore_auth: []}]`: the key as a bearer token opens the second): such
 * credentials are not sent as bad ones.
 */
function opensAlternative(op: OperationModel, key: string): (credentials: BadCredentials) => boolean {
  const alternatives = op.security.slice(1).map((scheme) => validCredentials(scheme, key));
  return (credentials) =>
    alternatives.some((valid) => Object.entries(valid.headers).every(([name, value]) => credentials.headers[name.toLowerCase()] === value || credentials.headers[name] === value) && (valid.query === undefined || credentials.query === valid.query));
}

/**
 * The statuses that refuse `credentials`: 401; also 403 when credentials were sent (wrong, empty, of another scheme)
 * and the operation does not pin 401 (it documents 403, or no 401), unless `--strict` (D121). RFC 9110 gives 403 to
 * a server that "considers [the credentials provided] insufficient to grant access", and many gateways answer a
 * wrong API key so; a request with no credentials at all is a 401 whatever the spec says.
 */
export function refusedCredentialStatuses(op: OperationModel, credentials: BadCredentials, strict: boolean): number[] {
  const documents = (status: string): boolean => op.responses.some((response) => response.status === status);
  const sent = Object.values(credentials.headers).some((value) => value !== null) || credentials.query !== undefined;
  return sent && !strict && (documents('403') || !documents('401')) ? [401, 403] : [401];
}

/**
 * Authentication (seed): the operation with missing or invalid credentials for its security scheme (none, empty,
 * another scheme, the key without its scheme, a wrong or altered key) is a 401 in the error shape, and a refused
 * create creates nothing. Authentication is not assumed to come before validation: every request here is
 * otherwise valid (DECISIONS D17).
 */
export function authCheck(op: OperationModel, id: string, rule: string): Check {
  const scheme = op.security[0]!;
  return {
    id,
    rule,
    writes: writes(op),
    async run(context) {
      const sampled = { ...(context.target.seed === undefined ? {} : { seed: context.target.seed }) };
      let requests: fc.Arbitrary<SampleRequest>;
      let sample: SampleRequest | undefined;
      // A parent the set-up could not make leaves no record to name: the probe then names drawn values (D164).
      let detached = false;
      // The run's number keeps the markers of refused creates apart from those of other runs (D211); one past it,
      // apart from the create checks' own markers.
      const markerRun = Number(context.run.number) + 1;
      try {
        requests = await sampleRequests(context, op, markerRun);
        [sample] = fc.sample(requests, { numRuns: 1, ...sampled });
      } catch (failure) {
        if (!(failure instanceof NotRun)) throw failure;
        detached = true;
        requests = await sampleRequests(context, op, markerRun, true);
        [sample] = fc.sample(requests, { numRuns: 1, ...sampled });
      }
      const attempt = async ([credentials, { request, marker }]: [BadCredentials, SampleRequest]): Promise<void> => {
        const refused = refusedCredentialStatuses(op, credentials, context.target.strict);
        const { exchange } = await context.call(op, { ...request, credentials }, detached ? [...refused, 404] : refused);
        if (!detached && op.resource !== undefined && op.role === 'create') await expectNothingCreated(context, op.resource, marker, exchange);
      };
      // Every fixed kind of bad credentials once, then random keys and requests.
      const opensAnother = opensAlternative(op, context.target.apiKey);
      for (const credentials of credentialVariants(scheme, context.target.apiKey)) if (!opensAnother(credentials)) await attempt([credentials, sample!]);
      await context.forAll(fc.tuple(badCredentials(scheme, context.target.apiKey).filter((credentials) => !opensAnother(credentials)), requests), attempt, { runs: Math.min(context.target.runs, 30) });
    },
  };
}
