import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDiagnostic, GateError } from '../../src/errors.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { checkPolicyText } from '../../src/policy/check-policy.ts';
import { parsePolicy } from '../../src/policy/load-policy.ts';
import { buildPolicy } from '../../src/policy/policy.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

const file = 'policies/mine.yaml';
const shipped = async () => readFile(path.join(repoRoot, 'policies', 'default.yaml'), 'utf8');
const withSchemes = (text: string, schemes: string) =>
  text.replace(/^ {2}schemes: \[[^\]]*\]/m, `  schemes: [${schemes}]`);

describe('`data:` and `javascript:` are never allowed, as the docs and the report hints say', () => {
  test.each(['javascript', 'data', 'vbscript', 'livescript'])(
    '`links.schemes` listing %s does not load: an error naming the field at file:line:col',
    async (scheme) => {
      const text = withSchemes(await shipped(), `https, ${scheme}`);
      expect(text).toContain(`schemes: [https, ${scheme}]`);
      const check = checkPolicyText(text, file);
      expect(check.policy).toBeUndefined();
      const line = text.split('\n').findIndex((l) => l.includes(`schemes: [https, ${scheme}]`)) + 1;
      const col = (text.split('\n')[line - 1] ?? '').indexOf(scheme) + 1;
      expect(check.diagnostics.map(formatDiagnostic)).toEqual([
        `${file}:${line}:${col}: error policy.never-allowed-scheme: \`links.schemes.1\`: scheme \`${scheme}\` is never allowed: a \`${scheme}:\` link is inline content or script, there is nothing to read`,
      ]);
      expect(() => parsePolicy(text, file)).toThrow(GateError);
    },
  );

  test('`file` still loads: a filesystem server names its resources `file:` and reads them itself', async () => {
    const policy = parsePolicy(withSchemes(await shipped(), 'https, file'), file);
    const gate = createGate(policy);
    const decision = await gate.decide({
      stage: 'link',
      server: 'fs',
      link: { type: 'resource_link', uri: 'file:///srv/notes.txt', name: 'n' },
    });
    expect(decision.effect).toBe('allow');
  });

  test('a policy built without the loader (a cached document) still denies them at the link decision', async () => {
    const loaded = parsePolicy(await shipped(), file);
    const document = structuredClone<typeof loaded.document>(loaded.document);
    (document.links as { schemes: string[] }).schemes = ['https', 'javascript', 'data'];
    const gate = createGate(buildPolicy(document, file));
    for (const uri of ['javascript:alert(1)', 'data:text/plain,hi']) {
      const decision = await gate.decide({
        stage: 'link',
        server: 'evil',
        link: { type: 'resource_link', uri, name: 'x' },
      });
      expect(decision.effect, uri).toBe('deny');
      expect(
        decision.reasons.map((r) => [r.code, r.message]),
        uri,
      ).toContainEqual(['uri.scheme-not-allowed', `scheme \`${uri.split(':')[0]}\` is never allowed`]);
    }
  });
});
