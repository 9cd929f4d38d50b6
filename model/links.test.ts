import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expressionSource, linksFeeding, linkTarget } from './links.js';
import { loadModel, PACKAGE_ROOT } from './loader.js';

describe('declared links (D118)', () => {
  test('a create declares where its key goes: by operationId, by operationRef and through components/links', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'boards-links-3.0.yaml'));
    const op = (id: string) => model.operations.find((one) => one.operationId === id)!;
    const links = op('createBoard').responses.find((response) => response.status === '201')!.links ?? [];
    expect(links.map((link) => [link.name, linkTarget(link, model.operations)?.operationId])).toEqual([
      ['BoardCards', 'listBoardCards'],
      ['AddCard', 'addCard'],
      ['Archive', 'archiveBoard'],
    ]);
    for (const target of ['listBoardCards', 'addCard', 'archiveBoard']) {
      expect(linksFeeding(op('createBoard'), op(target), 'boardRef', model.operations).map(({ source }) => source)).toEqual([{ from: 'response', part: 'body', pointer: ['key'] }]);
    }
    // The cards' own answers declare no link, and nothing else leads to the cards.
    expect(linksFeeding(op('addCard'), op('listBoardCards'), 'boardRef', model.operations)).toEqual([]);
  });

  test('the links of the code-review spec name their targets and take request path parameters', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'code-review-links-3.0.yaml'));
    const member = model.operations.find((one) => one.operationId === 'getMemberByName')!;
    const [link] = member.responses.find((response) => response.status === '200')!.links ?? [];
    expect(linkTarget(link!, model.operations)?.operationId).toBe('getProjectsByOwner');
  });

  test('runtime expressions: body pointers (escaped), headers, request parameters; constants feed nothing', () => {
    expect(expressionSource('$response.body#/data/0/a~1b')).toEqual({ from: 'response', part: 'body', pointer: ['data', '0', 'a/b'] });
    expect(expressionSource('$response.header.Location')).toEqual({ from: 'response', part: 'header', name: 'location' });
    expect(expressionSource('$request.path.username')).toEqual({ from: 'request', part: 'path', name: 'username' });
    expect(expressionSource('$request.body')).toEqual({ from: 'request', part: 'body', pointer: [] });
    expect(expressionSource('$statusCode')).toBeUndefined();
    expect(expressionSource(42)).toBeUndefined();
  });
});
