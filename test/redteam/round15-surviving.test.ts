// Red team (issue 39, hidden-style round 15), a refused address surviving where a front end hands on more than the
// content items: as a bare string member of `structuredContent` (not a `resource_link` object), as a member's key,
// in an embedded resource whose own uri is refused (its body already in the result), and in `structuredContent` the
// in-process hooks get beside the items (the Claude Agent SDK hands its hook the MCP object, the Copilot SDK appends
// it as JSON to the text the model reads). Codex's and Cline's hooks as the host runs them, the in-process hooks as
// their SDKs call them. Controls: the same shapes with an ordinary address are handed on.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { givenOn } from './round12-cases.ts';
import { clineResult, doc } from './round13-hosts.ts';
import { agentGiven, codexResult, copilotGiven, copilotHooks } from './round15-fronts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r15surviving-');
const secret = 'AKIA-R15-SECRET';
const ok = { type: 'text', text: 'ok' };

// [label, a tool result carrying `uri` outside any resource_link item]
const shapes: [string, (uri: string) => Record<string, unknown>][] = [
  ['a bare string member of structuredContent', (uri) => ({ content: [ok], structuredContent: { next: uri } })],
  ['a string in a list of structuredContent', (uri) => ({ content: [ok], structuredContent: { see: ['x', uri] } })],
  ['a key of structuredContent', (uri) => ({ content: [ok], structuredContent: { [uri]: 1 } })],
  [
    'an embedded resource at that uri with its body',
    (uri) => ({ content: [{ type: 'resource', resource: { uri, mimeType: 'text/plain', text: secret } }] }),
  ],
];

describe('red team, surviving (round 15): Codex and Cline, a refused address outside a resource_link', () => {
  for (const [label, shape] of shapes) {
    test(`codex: ${label}: not handed on`, async () => {
      const event = codexResult(shape(metadata));
      const given = givenOn((await hooks.hook('codex', event)).stdout, event);
      expect(given).not.toContain(hostPath);
      expect(given).not.toContain(secret);
    });
    test(`cline: ${label}: not handed on`, async () => {
      const event = clineResult(shape(metadata));
      const given = givenOn((await hooks.hook('cline', event)).stdout, event);
      expect(given).not.toContain(hostPath);
      expect(given).not.toContain(secret);
    });
  }
  test('control: codex: an ordinary address as a structuredContent string is handed on', async () => {
    const run = await hooks.hook('codex', codexResult(shapes[0]?.[1](doc) ?? {}));
    expect(run.stdout).toBe('');
  });
});

describe('red team, surviving (round 15): structuredContent beside the items of the in-process hooks', () => {
  test('claude agent sdk: the MCP object with the metadata uri as a structuredContent string: not handed on', async () => {
    expect(await agentGiven({ content: [ok], structuredContent: { next: metadata } })).not.toContain(hostPath);
  });
  test('claude agent sdk: structuredContent holding a resource_link to it: not handed on', async () => {
    const given = await agentGiven({ content: [ok], structuredContent: { links: [link(metadata, 'k')] } });
    expect(given).not.toContain(hostPath);
  });
  test('copilot sdk: structuredContent with the metadata uri as a string: not in the text the model reads', async () => {
    const given = await copilotGiven(await copilotHooks(hooks.dir), [ok], { structuredContent: { next: metadata } });
    expect(given).not.toContain(hostPath);
  });
  test('control: copilot sdk: structuredContent with an ordinary uri: handed on', async () => {
    const given = await copilotGiven(await copilotHooks(hooks.dir), [ok], { structuredContent: { next: doc } });
    expect(given).toContain(doc);
  });
  test('control: claude agent sdk: structuredContent with an ordinary link: handed on', async () => {
    expect(await agentGiven({ content: [ok], structuredContent: { links: [link(doc, 'k')] } })).toContain(doc);
  });
});
