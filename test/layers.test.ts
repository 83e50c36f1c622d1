import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const cruiser = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = path.join(root, '.dependency-cruiser.mjs');
const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the layer check of `npm run lint` over `<dir>/src`; returns its exit code and report. */
function cruise(dir: string): { code: number | null; report: string } {
  const run = spawnSync(process.execPath, [cruiser, 'src', '--config', config, '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, report: `${run.stdout}${run.stderr}` };
}

describe('the layer check', () => {
  test('src/ as it is: no folder imports one above or beside it, no cycle', () => {
    const { code, report } = cruise(root);
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  test('fails on a planted upward import, a sideways one, a cycle and a folder outside the layers', () => {
    const tree = path.join(scratch, 'planted');
    cpSync(path.join(root, 'src'), path.join(tree, 'src'), { recursive: true });
    cpSync(path.join(root, 'tsconfig.json'), path.join(tree, 'tsconfig.json'));
    // the decision types reach up into the engine
    appendFileSync(path.join(tree, 'src/decision/decision.ts'), "\nimport '../gate/create-gate.ts';\n");
    // two front ends on one layer
    appendFileSync(path.join(tree, 'src/proxy/json-lines.ts'), "\nimport '../hook/hook-event.ts';\n");
    // a cycle inside one folder
    writeFileSync(path.join(tree, 'src/link/planted-a.ts'), "import './planted-b.ts';\nexport const a = 1;\n");
    writeFileSync(path.join(tree, 'src/link/planted-b.ts'), "import './planted-a.ts';\nexport const b = 1;\n");
    // a folder nobody placed
    mkdirSync(path.join(tree, 'src/stray'));
    writeFileSync(path.join(tree, 'src/stray/stray.ts'), "import '../errors.ts';\n");
    const { code, report } = cruise(tree);
    expect(code).not.toBe(0);
    expect(report).toContain('layer-decision-imports-up: src/decision/decision.ts → src/gate/create-gate.ts');
    expect(report).toContain('layer-proxy-hook-imports-beside: src/proxy/json-lines.ts → src/hook/hook-event.ts');
    expect(report).toMatch(/no-circular: src\/link\/planted-[ab]\.ts → /);
    expect(report).toContain('not-in-layers: src/stray/stray.ts → src/errors.ts');
  });
});
