import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { loadModel } from '../model/loader.js';
import { specMock } from './spec-mock.js';

/**
 * A record keyed by its own `<singular>Id` where no item path names the key (spec/DECISIONS.md › D556): projects
 * replaced by `PUT /projects` with the key in the body, whose records also hold a read-only `accountName` (the
 * owner's). Read as keyed by `accountName`, the suite sent that read-only member in the replace and our mock rightly
 * refused it; keyed by `projectId`, the replace names the project and persists.
 */
const SPEC = `openapi: 3.0.3
info: { title: Builds, version: '1' }
paths:
  /projects:
    get:
      operationId: getProjects
      responses:
        '200': { description: The projects., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Project' } } } } }
    post:
      operationId: addProject
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [repositoryName]
              properties: { repositoryName: { type: string, minLength: 1, maxLength: 20 } }
      responses:
        '200': { description: Added., content: { application/json: { schema: { $ref: '#/components/schemas/Project' } } } }
    put:
      operationId: updateProject
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Project' } } } }
      responses:
        '204': { description: Updated. }
components:
  schemas:
    Project:
      type: object
      required: [projectId]
      properties:
        accountName: { type: string, readOnly: true }
        slug: { type: string, readOnly: true }
        projectId: { type: integer, minimum: 0 }
        repositoryName: { type: string, maxLength: 20 }
        isPrivate: { type: boolean }
`;

const started = specMock('own-id', SPEC, ['k']);

describe("a record's own <singular>Id is its key before a read-only member naming another thing (D556)", () => {
  test('projects are keyed by projectId', async () => {
    const model = await loadModel(started.spec);
    expect(model.resources.find((resource) => resource.name === 'projects')?.idProperty).toBe('projectId');
  });

  test("the suite's checks of the replace pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('updateProject.'));
    expect(ids).toContain('updateProject.persisted');
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
