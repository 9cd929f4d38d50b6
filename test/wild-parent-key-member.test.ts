import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Records under a parent whose schema names the parent's key (`project_id` of a task under
 * `/projects/{projectId}/tasks`), written by bodies that may carry another value there (spec/DECISIONS.md › D828):
 * the record lives under the parent its path names, so a server answering the path's key, as our mock does, is not
 * failed for leaving the sent one out, in the replace's check or the stateful model.
 */
const TASK = `{ type: object, required: [title], properties: { title: { type: string, minLength: 1, maxLength: 20 }, project_id: { type: string, maxLength: 20 }, done: { type: boolean } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Projects, version: '1' }
paths:
  /projects:
    get:
      operationId: listProjects
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Project' } } } } }
    post:
      operationId: createProject
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string, minLength: 1, maxLength: 20 } } } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Project' } } } }
  /projects/{projectId}:
    get:
      operationId: getProject
      parameters: [{ name: projectId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Project' } } } }
        '404': { description: None. }
  /projects/{projectId}/tasks:
    parameters: [{ name: projectId, in: path, required: true, schema: { type: string } }]
    get:
      operationId: listTasks
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Task' } } } } }
    post:
      operationId: createTask
      requestBody: { required: true, content: { application/json: { schema: ${TASK} } } }
      responses:
        '201': { description: Made. }
  /projects/{projectId}/tasks/{taskId}:
    parameters:
      - { name: projectId, in: path, required: true, schema: { type: string } }
      - { name: taskId, in: path, required: true, schema: { type: string } }
    put:
      operationId: replaceTask
      requestBody: { required: true, content: { application/json: { schema: ${TASK} } } }
      responses:
        '200': { description: Replaced., content: { application/json: { schema: { $ref: '#/components/schemas/Task' } } } }
        '404': { description: None. }
components:
  schemas:
    Project:
      type: object
      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
    Task:
      type: object
      required: [id, title]
      properties:
        id: { type: string, readOnly: true }
        title: { type: string }
        project_id: { type: string }
        done: { type: boolean }
`;

const started = specMock('parent-key-member', SPEC, ['k']);

describe("a member naming the parent's key, written by a body (D828)", () => {
  test("the replace's check and the stateful model pass on our mock", async () => {
    await expectChecksPass(started, (id) => id === 'replaceTask.persisted' || id === 'stateful.model', ['replaceTask.persisted', 'stateful.model']);
  }, 120_000);
});
