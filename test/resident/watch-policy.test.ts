// The resident server reloads its policy when the policy file changes, not only on SIGHUP (issue 42 item 3 limits): a
// file renamed over it is loaded and checked as at a start once its bytes read the same twice; a file that does not
// load keeps the policy in force, and every outcome is reported. A policy written in place may be half written and
// still parse, looser than the whole (issue 39 item 4): it is reported and not loaded until it is replaced or SIGHUP
// asks. Tests wait for the reported outcome, never for a time.
import { linkSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdPolicy, type PolicyHolder } from '../../src/gate/reload-policy.ts';
import { type PolicyWatch, reloadLine, type WatchOutcome, watchPolicyFiles } from '../../src/resident/watch-policy.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

type Outcome = WatchOutcome;
const original = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
const withVersion = (version: string) => original.replace(/^version: .*$/m, `version: ${version}`);

let dir: string;
let file: string;
let holder: PolicyHolder;
let watch: PolicyWatch;
let waiters: { test: (o: Outcome) => boolean; resolve: (o: Outcome) => void }[];

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'linkgate-watch-policy-'));
  file = path.join(dir, 'policy.yaml');
  writeFileSync(file, withVersion('1.0.0'));
  holder = await holdPolicy(file);
  waiters = [];
  watch = watchPolicyFiles(
    file,
    [`${file}.sig`],
    () => holder.reload(),
    (outcome) => {
      for (const w of waiters.splice(0))
        if (w.test(outcome)) w.resolve(outcome);
        else waiters.push(w);
    },
  );
});
afterEach(() => {
  watch.close();
  rmSync(dir, { recursive: true, force: true });
});

// the first outcome reported from now on that passes `test` (a burst of changes may be reported more than once)
const until = (test: (o: Outcome) => boolean) => new Promise<Outcome>((resolve) => waiters.push({ test, resolve }));
const version = () => holder.gate().policy.ref.version;

describe('the resident policy watch', () => {
  it('loads a policy renamed over the file, as a deployment or an editor writes it', async () => {
    const loaded = until((o) => 'ok' in o && o.ok && o.policy.version === '1.0.1');
    writeFileSync(path.join(dir, '.policy.yaml.tmp'), withVersion('1.0.1'));
    renameSync(path.join(dir, '.policy.yaml.tmp'), file);
    const outcome = await loaded;
    expect(version()).toBe('1.0.1');
    expect(reloadLine(outcome, 'policy files changed')).toBe(
      'linkgate resident: policy files changed: reload ok, policy `default` 1.0.1',
    );
  });

  it('never loads a policy written in place, half written and parsing, nor once it is whole', async () => {
    // the first 30 lines of the policy parse: `content.allow` cut to two types (on main this was put in force)
    const half = `${withVersion('2.0.0').split('\n').slice(0, 30).join('\n')}\n`;
    const reported = until((o) => 'writtenInPlace' in o || 'ok' in o);
    writeFileSync(file, half);
    const outcome = await reported;
    expect(outcome).toEqual({ writtenInPlace: file });
    expect(version()).toBe('1.0.0');
    expect(reloadLine(outcome, 'policy files changed')).toMatch(/written in place .*kept the policy in force/);
    // the rest written: still in place, still not loaded; a change of the signatures does not load it either
    const again = until((o) => 'writtenInPlace' in o || 'ok' in o);
    writeFileSync(file, withVersion('2.0.0'));
    expect(await again).toEqual({ writtenInPlace: file });
    const sig = until((o) => 'writtenInPlace' in o || 'ok' in o);
    writeFileSync(`${file}.sig`, '');
    expect(await sig).toEqual({ writtenInPlace: file });
    expect(version()).toBe('1.0.0');
    // renamed over it, it is loaded
    const loaded = until((o) => 'ok' in o && o.ok && o.policy.version === '2.0.1');
    writeFileSync(path.join(dir, '.policy.yaml.tmp'), withVersion('2.0.1'));
    renameSync(path.join(dir, '.policy.yaml.tmp'), file);
    await loaded;
    expect(version()).toBe('2.0.1');
  });

  it('after SIGHUP loaded a policy written in place, a change of the signatures reloads it', async () => {
    writeFileSync(file, withVersion('4.0.0'));
    await until((o) => 'writtenInPlace' in o);
    expect((await holder.reload()).ok).toBe(true);
    watch.loaded();
    const loaded = until((o) => 'ok' in o && o.ok);
    writeFileSync(`${file}.sig`, '');
    await loaded;
    expect(version()).toBe('4.0.0');
  });

  it('keeps the policy in force when the new file does not load, and says so', async () => {
    const kept = until((o) => 'ok' in o && !o.ok);
    const next = path.join(dir, '.policy.yaml.tmp');
    writeFileSync(next, `${withVersion('3.0.0')}\nlinks: [not, a, mapping\n`);
    renameSync(next, file);
    const outcome = await kept;
    expect(version()).toBe('1.0.0');
    expect(reloadLine(outcome, 'policy files changed')).toMatch(
      /^linkgate resident: policy files changed: kept the policy in force: /,
    );
    // the next good file is loaded
    const loaded = until((o) => 'ok' in o && o.ok && o.policy.version === '3.0.1');
    writeFileSync(next, withVersion('3.0.1'));
    renameSync(next, file);
    await loaded;
    expect(version()).toBe('3.0.1');
  });

  it('after a failed reload, a good file renamed over the policy with the inode of the policy once in force loads', async () => {
    // 488b968: the watch compared a renamed-over file with the policy *in force*, not with the file it last examined.
    // A file system may give a new file the inode of the one in force once a failed reload's file replaced it (CI run
    // 23); a hard link makes that deterministic: `spare` keeps the inode of the file in force alive, is written with a
    // good policy and renamed over the file that failed to load. It is no write in place: the file standing there was
    // the failed one.
    const spare = path.join(dir, '.policy.yaml.spare');
    linkSync(file, spare);
    const next = path.join(dir, '.policy.yaml.tmp');
    const failed = until((o) => 'ok' in o && !o.ok);
    writeFileSync(next, `${withVersion('5.0.0')}\nlinks: [not, a, mapping\n`);
    renameSync(next, file);
    await failed;
    expect(version()).toBe('1.0.0');
    const reported = until((o) => 'writtenInPlace' in o || ('ok' in o && o.ok));
    writeFileSync(spare, withVersion('5.0.1'));
    const inForce = statSync(spare).ino;
    renameSync(spare, file);
    expect(statSync(file).ino).toBe(inForce);
    const outcome = await reported;
    expect(outcome).toMatchObject({ ok: true });
    expect(version()).toBe('5.0.1');
  });
});
