// A hook command naming its policy by the host's project variable (`--policy "$CLAUDE_PROJECT_DIR/linkgate.yaml"`):
// Claude Code sets CLAUDE_PROJECT_DIR to the project folder for every command hook, and its shell expands it. Doctor
// read the words unexpanded and said the policy at `<project>/$CLAUDE_PROJECT_DIR/linkgate.yaml` "does not load":
// false. Doctor now reads the words as the host runs them; any other variable (the host's environment, which doctor
// does not see) leaves the path unknown, said plainly, and the hook is not known to gate (issue 39). Fails on main.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hookCommandWords } from '../../src/doctor/hook-variables.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { defaultPolicy, doctorReport, plainServer, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-vars-');

/** Doctor's report on Claude Code hooks running `node CLI hook claude-code --policy POLICY` (POLICY as written). */
async function claudeDoctor(policyWord: string): Promise<{ report: DoctorReport; home: string; project: string }> {
  const { home, project } = scratch();
  const policy = readFileSync(defaultPolicy, 'utf8');
  write(path.join(project, 'linkgate.yaml'), policy);
  write(path.join(home, 'linkgate.yaml'), policy);
  const command = `${['node', cliEntry(), 'hook', 'claude-code'].map(shellQuote).join(' ')} --policy ${policyWord}`;
  write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](command));
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  return { report: await doctorReport(home, project), home, project };
}

describe("doctor reads a hook command's variables as the host does", () => {
  test.each([
    '"$CLAUDE_PROJECT_DIR/linkgate.yaml"',
    '${CLAUDE_PROJECT_DIR}/linkgate.yaml',
    '$CLAUDE_PROJECT_DIR/linkgate.yaml',
  ])("claude code: --policy %s is the project's linkgate.yaml, and it loads", async (word) => {
    const { report, project } = await claudeDoctor(word);
    expect(report.hooks.length).toBeGreaterThan(0);
    for (const h of report.hooks) {
      expect(h.policy.file).toBe(path.join(project, 'linkgate.yaml'));
      expect(h.policy.review).toBe('not-checked');
      expect(h.problems.join('\n')).not.toContain('does not load');
      expect(h.argv).toContain(path.join(project, 'linkgate.yaml'));
    }
    // it lies in the project, which the agent's shell may write: that, and only that, keeps it from gating
    const docs = report.servers.find((s) => s.name === 'docs');
    expect(docs?.state).toBe('not-gated');
    expect(docs?.problems.join('\n')).toContain("which the agent's shell may write");
    expect(docs?.problems.join('\n')).not.toContain('does not load');
  });

  test('inside single quotes the shell leaves it as written: that path does not load, and doctor says so', async () => {
    const { report, project } = await claudeDoctor("'$CLAUDE_PROJECT_DIR/linkgate.yaml'");
    for (const h of report.hooks) {
      expect(h.policy.file).toBe(path.join(project, '$CLAUDE_PROJECT_DIR', 'linkgate.yaml'));
      expect(h.policy.review).toBe('does-not-load');
    }
  });

  test('another variable ($HOME): doctor cannot tell what the path is, says so, and never calls the hook gating', async () => {
    const { report } = await claudeDoctor('"$HOME/linkgate.yaml"');
    expect(report.hooks.length).toBeGreaterThan(0);
    for (const h of report.hooks) {
      expect(h.policy.review).toBe('unknown');
      expect(h.runs).toBe(false);
      const text = h.problems.join('\n');
      expect(text).toContain('doctor cannot tell what `--policy` `$HOME/linkgate.yaml` names');
      expect(text).not.toContain('does not load');
    }
    expect(report.servers.find((s) => s.name === 'docs')?.state).toBe('not-gated');
    expect(report.ok).toBe(false);
  });

  test('gemini cli replaces $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR in the text, single quotes too', () => {
    const project = '/srv/p';
    for (const name of ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR']) {
      expect(
        hookCommandWords('gemini-cli', `linkgate hook gemini-cli --policy '$${name}/x.yaml'`, project).words,
      ).toEqual(['linkgate', 'hook', 'gemini-cli', '--policy', '/srv/p/x.yaml']);
      // the braced form is the shell's, from the environment gemini cli sets
      expect(hookCommandWords('gemini-cli', `a "\${${name}}/x"`, project).words).toEqual(['a', '/srv/p/x']);
    }
    // a folder gemini cli would quote as it substitutes it: not known
    expect(hookCommandWords('gemini-cli', 'a $GEMINI_PROJECT_DIR/x', '/srv/my p').unknown[1]).toBeDefined();
    // claude code does not set GEMINI_PROJECT_DIR; codex sets neither
    expect(hookCommandWords('claude-code', 'a $GEMINI_PROJECT_DIR/x', project).unknown[1]).toBe('$GEMINI_PROJECT_DIR');
    expect(hookCommandWords('codex', 'a "$CLAUDE_PROJECT_DIR/x"', project).unknown[1]).toBe('$CLAUDE_PROJECT_DIR');
  });

  test('claude code: an unquoted project folder the shell would split is not known; quoted it is', () => {
    expect(hookCommandWords('claude-code', 'a $CLAUDE_PROJECT_DIR/x', '/w/my p').unknown[1]).toBe(
      '$CLAUDE_PROJECT_DIR',
    );
    expect(hookCommandWords('claude-code', 'a "$CLAUDE_PROJECT_DIR/x"', '/w/my p').words[1]).toBe('/w/my p/x');
    // a handler env setting it: which value wins is not known
    expect(
      hookCommandWords('claude-code', 'a "$CLAUDE_PROJECT_DIR"', '/w', { CLAUDE_PROJECT_DIR: '/e' }).unknown[1],
    ).toBeDefined();
  });
});
