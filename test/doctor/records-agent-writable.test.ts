// A front end's `--records` file in a folder the agent's shell may write (the project, Claude Code's temp folders):
// the agent can rewrite or delete it, so the records are no evidence of what the gate decided. Doctor checked the
// policy and linkgate's code against those folders, never the records (issue 39). Fails on main.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { doctorReport, plainServer, printedHook, proxiedServer, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-records-');
const uid = process.getuid?.() ?? 0;

describe("doctor checks the records file against the folders the agent's shell may write", () => {
  test("hook records in the project or claude code's per-user temp folder: named, the control outside is not", async () => {
    const { home, project } = scratch();
    const tmp = path.join(home, 'cc-tmp');
    const cases: [string, boolean][] = [
      [path.join(project, 'records.jsonl'), true],
      [path.join(tmp, `claude-${uid}`, 'records.jsonl'), true],
      [path.join(home, 'records.jsonl'), false],
    ];
    for (const [records, open] of cases) {
      write(path.dirname(records) + '/.keep', '');
      write(
        path.join(home, '.claude', 'settings.json'),
        hostSettings['claude-code'](printedHook('claude-code', '--records', records)),
      );
      write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
      const report = await doctorReport(home, project, { CLAUDE_CODE_TMPDIR: tmp });
      expect(report.hooks.length).toBeGreaterThan(0);
      for (const h of report.hooks) {
        expect(h.records?.file).toBe(records);
        expect(h.records?.agentWritable !== undefined).toBe(open);
        expect(h.warnings.some((w) => w.includes('its records are no evidence'))).toBe(open);
        // records are evidence, not the gate: whether the hook runs is unchanged
        expect(h.problems.join('\n')).not.toContain('records');
      }
    }
  });

  test('proxy records in the project: marked on the server', async () => {
    const { home, project } = scratch();
    const records = path.join(project, 'records.jsonl');
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxiedServer('--records', records) } });
    const report = await doctorReport(home, project);
    const docs = report.servers.find((s) => s.name === 'docs');
    expect(docs?.records[0]?.agentWritable).toContain('the project folder');
  });
});
