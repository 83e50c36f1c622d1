// The strings of a tool result's structured values are searched for the addresses of its refused links by the same
// search as a session's later messages (`src/flow/address-search.ts`): a refused uri written percent-encoded is found
// read back, and an address is found only at host boundaries (issue 39).
import { beforeAll, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { judgeStructured } from '../../src/flow/structured-links.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('policies/default.yaml'));
});

test("a string naming a refused link's address is replaced in any form it is written in, and only at host boundaries", async () => {
  const links = [
    { type: 'resource_link', uri: 'http://10.0.0.2/%61dmin', name: 'admin' },
    { type: 'resource_link', uri: 'http://localhost/', name: 'local' },
  ];
  const structured = {
    links,
    decoded: 'now open 10.0.0.2/admin',
    slashes: 'now open 10.0.0.2\\admin',
    near: 'see notlocalhost.com or localhosts.example',
    at: 'see localhost/x',
  };
  const judged = await judgeStructured(gate, structured, { server: 'docs', mode: 'enforce' });
  expect(judged.withheld ? [] : judged.edits.map((e) => e.path.join('.')).sort()).toEqual([
    'at',
    'decoded',
    'links.0',
    'links.1',
    'slashes',
  ]);
});
