// Red team (issue 39, hidden-style round 5), MCP 2026-07-28 shapes (docs/protocol-eras.md): a read error in the new
// not-found form (`-32602` with the uri in `data`) whose `data.uri` is the metadata address, before and after a link to
// it was refused (docs say the gate keeps `data.uri` of a read error); a read that answers `input_required` with a
// sampling request holding a refused link; a task handle (`resultType: task`) whose completed task, from `tasks/get`,
// holds the refused uri only in `structuredContent`. Through the proxy and the decorator over the real stdio servers.
import { afterEach, describe, expect } from 'vitest';
import { callWith, fronts, taskFronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const refused = { result: { content: [link(metadata, 'creds')] } };
const notFound = { error: { code: -32602, message: 'resource not found', data: { uri: metadata } } };

for (const [front, start] of fronts)
  describe(`red team, MCP 2026-07-28 (round 5) through the ${front}: read answers`, () => {
    for (const after of [false, true])
      it(`not found ${after}`)(
        `a not-found read error whose data.uri is the metadata address${after ? ', after its refusal' : ''}`,
        async () => {
          const f = await start();
          if (after) await callWith(f, refused);
          await callWith(f, {
            result: { content: [link('rt://docs/a.txt', 'a')] },
            answers: { 'resources/read': notFound },
          });
          const answer = JSON.stringify(await f.request('resources/read', { uri: 'rt://docs/a.txt' }));
          expect(answer).not.toContain(hostPath);
          expect(await f.got()).not.toContain(hostPath);
        },
      );

    it(`read input_required ${front}`)(
      'a read answering input_required with a sampling request holding a refused link',
      async () => {
        const f = await start();
        const inputRequired = {
          resultType: 'input_required',
          inputRequests: {
            s1: {
              method: 'sampling/createMessage',
              params: { maxTokens: 5, messages: [{ role: 'user', content: link(metadata, 'creds') }] },
            },
          },
          requestState: 'st',
        };
        await callWith(f, {
          result: { content: [link('rt://docs/a.txt', 'a')] },
          answers: { 'resources/read': { result: inputRequired } },
        });
        const answer = JSON.stringify(await f.request('resources/read', { uri: 'rt://docs/a.txt' }));
        expect(answer).not.toContain(hostPath);
      },
    );
  });

// a task handle, then its completed task from `tasks/get` (the scripted server keeps tasks)

for (const [front, start] of taskFronts)
  describe(`red team, MCP 2026-07-28 (round 5) through the ${front}: a task handle`, () => {
    it(`task structured ${front}`)(
      'its completed task holding the refused uri only in structuredContent hands on none of it',
      async () => {
        const f = await start();
        const task = {
          taskId: 't7',
          status: 'completed',
          createdAt: '2026-01-01T00:00:00Z',
          ttl: 1000,
          result: { content: [{ type: 'text', text: 'done' }], structuredContent: { next: { href: metadata } } },
        };
        const handle = await f.call({ result: { resultType: 'task', taskId: 't7' }, tasks: { t7: { get: task } } });
        expect(JSON.stringify(handle)).toContain('t7');
        expect(JSON.stringify(await f.get('t7'))).not.toContain(hostPath);
      },
    );
  });
