import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list that names its records by their keys alone (`reportIds: ["1", "2"]`, spec/DECISIONS.md › D231, D825), of
 * records no write changes, with a filter: the list shows no member of a record, so the suite holds no listed key to
 * the members its create answered, and judges a filter on the records the run made that the page names.
 */
const SPEC = `openapi: 3.0.3
info: { title: Reports, version: '1' }
paths:
  /reports:
    get:
      operationId: listReports
      parameters:
        - { name: kind, in: query, schema: { $ref: '#/components/schemas/Kind' } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 20 } }
        - { name: offset, in: query, schema: { type: integer, minimum: 0, default: 0 } }
      responses:
        '200':
          description: The keys of the reports.
          content:
            application/json:
              schema:
                type: object
                required: [reportIds]
                properties:
                  reportIds: { type: array, items: { type: string } }
                  total: { type: integer }
        '422': { description: Refused. }
    post:
      operationId: createReport
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewReport' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { type: object, required: [reportId], properties: { reportId: { type: string } } } } } }
        '422': { description: Refused. }
  /reports/{reportId}:
    get:
      operationId: getReport
      parameters: [{ name: reportId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Report' } } } }
        '404': { description: None. }
components:
  schemas:
    Kind: { type: string, enum: [SPAM, PHISHING, MALWARE] }
    NewReport:
      type: object
      required: [kind, source]
      properties:
        kind: { $ref: '#/components/schemas/Kind' }
        source: { type: string, minLength: 1, maxLength: 30 }
    Report:
      type: object
      required: [reportId, kind, source, closed]
      properties:
        reportId: { type: string, readOnly: true }
        kind: { $ref: '#/components/schemas/Kind' }
        source: { type: string, minLength: 1, maxLength: 30 }
        closed: { type: boolean, readOnly: true }
`;

const started = specMock('list-of-keys', SPEC, ['k']);

describe('a list of keys of records no write changes, with a filter (D825)', () => {
  test("the suite's list checks and its stateful model pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listReports.') || id === 'stateful.model' || id === 'responses.conformance' || id === 'createReport.echo', ['listReports.kind-filter', 'listReports.limit', 'stateful.model', 'responses.conformance']);
  }, 120_000);
});
