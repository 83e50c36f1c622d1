// The C0 controls text may hold (issue 41 item 5, no ordinary file blocked): a terminal is the consumer they act on,
// so the oracle is one, tmux (a terminal emulator that parses what is written to it as xterm does), shown each control
// between two words. Every control tmux acts on is one the gate makes text partial for; the ones it shows as nothing
// are data in ordinary files (fast-check's terminator table holds RS and NAK, rolldown's prompt a raw ETX key) and
// are allowed. ENQ, BEL, SO, SI, CAN and SUB are kept for the terminals that act on them though tmux shows them as
// nothing (xterm's answerback, the bell, the Linux console's line graphics in G1, a cancelled sequence, the VT100's
// SUB glyph).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { terminalC0 } from '../../../src/content/text/unsafe-text.ts';
import { createGate } from '../../../src/gate/create-gate.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { aptOracle, runOracle } from '../consumers/apt-oracle.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const suite = realHostSuite('tmux', () => aptOracle('tmux', '/usr/bin/tmux'));

// every C0 control but NUL, TAB, LF, CR and ESC (judged apart)
const controls = Array.from({ length: 31 }, (_, i) => i + 1).filter((c) => ![0x09, 0x0a, 0x0d, 0x1b].includes(c));
const hex = (c: number): string => c.toString(16).padStart(2, '0');

// what tmux shows of each body: each in a session of its own on a private server, captured once its `cat` has
// written it (the session signals a channel the test waits on, then waits on one nobody signals: the pane stays as
// shown, and the server, which ends with its last session, stays up until it is killed after the tests)
async function shownByTmux(tmux: string, dir: string, bodies: Map<string, string>): Promise<Map<string, string>> {
  const socket = path.join(dir, 'sock');
  const config = path.join(dir, 'tmux.conf');
  await writeFile(config, 'set -g status off\n');
  const run = async (...args: string[]): Promise<string> => {
    const out = await runOracle(tmux, ['-S', socket, ...args]);
    expect(out.code, out.out).toBe(0);
    return out.out;
  };
  const shown = new Map<string, string>();
  try {
    await shownEach(bodies, dir, socket, config, run, shown, tmux);
  } finally {
    // before the scratch folder (and the socket in it) goes
    await runOracle(tmux, ['-S', socket, 'kill-server']);
  }
  return shown;
}

async function shownEach(
  bodies: Map<string, string>,
  dir: string,
  socket: string,
  config: string,
  run: (...args: string[]) => Promise<string>,
  shown: Map<string, string>,
  tmux: string,
): Promise<void> {
  for (const [name, body] of bodies) {
    const file = path.join(dir, `${name}.txt`);
    await writeFile(file, body, 'latin1');
    const signal = `'${tmux}' -S '${socket}' wait-for`;
    await run(
      '-f',
      config,
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      '40',
      '-y',
      '6',
      `cat '${file}'; ${signal} -S ${name}; ${signal} ${name}-done`,
    );
    // returns once the session signals (a signal sent before the wait is kept for it)
    await run('wait-for', name);
    shown.set(name, (await run('capture-pane', '-p', '-t', name)).trimEnd());
  }
}

describe('the C0 controls a terminal acts on are the ones that make text partial', () => {
  test('tmux as the oracle: none it acts on is let through, and what it shows as nothing is not flagged', async (ctx) => {
    const tmux = suite.require(ctx);
    const dir = await suite.scratch('linkgate-c0-');
    const bodies = new Map([['plain', 'ab' + 'cd\nEND\n']]);
    for (const c of controls) bodies.set(`c${hex(c)}`, `ab${String.fromCharCode(c)}cd\nEND\n`);
    const shown = await shownByTmux(tmux, dir, bodies);
    const plain = shown.get('plain');
    expect(plain).toBe('abcd\nEND');
    const acted = controls.filter((c) => shown.get(`c${hex(c)}`) !== plain);
    // the oracle sees something: backspace and the line feeds change what it shows
    expect(acted.map(hex)).toEqual(expect.arrayContaining(['08', '0b', '0c']));
    for (const c of acted) expect(terminalC0.test(String.fromCharCode(c)), `0x${hex(c)}`).toBe(true);
    for (const c of controls.filter((c) => !terminalC0.test(String.fromCharCode(c))))
      expect(shown.get(`c${hex(c)}`), `0x${hex(c)}`).toBe(plain);
  });
});

const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

describe('ordinary files holding controls no terminal acts on are allowed', () => {
  test.each([
    [
      'fast-check/lib/fast-check.js',
      'const newLineChars = [..."\\r\\n"];\nconst terminatorChars = [..."\u001e\u0015"];\n',
    ],
    [
      'rolldown/dist/shared/prompt.mjs',
      'const keys = new Map([\n\t\t["l", "right"],\n\t\t["\u0003", "cancel"],\n]);\n',
    ],
  ])('%s', async (name, text) => {
    const uri = `guide://corpus/${name}`;
    const decision = await gate.decideRead({
      stage: 'read',
      link: { type: 'resource_link', uri, name, mimeType: 'text/plain' },
      result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text }] },
    });
    expect(decision.reasons).toEqual([]);
    expect(decision.effect).toBe('allow');
  });
});
