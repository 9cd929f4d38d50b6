import { test } from 'vitest';
import { loadModel } from '../../../spec/model.js';
test('v', async () => {
  const m = await loadModel('spec/wild/ferry-travel-3.1.yaml');
  const op = m.operations.find((o) => o.operationId === 'create-reservation-payment')!;
  console.log(JSON.stringify(op.resource!.properties['source']).slice(0, 900));
  console.log(JSON.stringify(op.body!.schema).includes('writeOnly'), JSON.stringify(op.body!.schema).slice(0, 300));
});
