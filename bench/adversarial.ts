// Section 7 of `npm run bench`: generated adversarial families whose cost once grew faster than their size
// (issue 23). Each family is one read item judged under policies/default.yaml at 1 MiB and 8 MiB; the target
// is time per byte at 8 MiB ≤ 1.5× time per byte at 1 MiB, and at most 1 s for 10 MiB.
import { fmtMs, interleave, summary, type Series } from './measure.ts';

type Engine = typeof import('../src/index.ts');
type Gate = ReturnType<Engine['createGate']>;

const MiB = 1024 ** 2;

// `unit` repeated to `bytes`, between `head` and `tail`
function fill(bytes: number, unit: string, head = '', tail = ''): Buffer {
  const count = Math.max(1, Math.floor((bytes - head.length - tail.length) / unit.length));
  return Buffer.from(head + unit.repeat(count) + tail, 'latin1');
}

// a GIF header whose width spells `/*` (a script comment), a 1×1 frame, then script ending in a syntax error
function gifWithScriptTail(bytes: number): Buffer {
  const gif = Buffer.from('474946383961' + '2f2a' + '0100' + '000000' + '2c00000000010001000002024401003b', 'hex');
  return Buffer.concat([gif, fill(bytes - gif.length, 'a=1;\n', '*/=1;\n', '+')]);
}

/** A family: its name, the declared type and the item's bytes at a size. */
export interface Family {
  name: string;
  mimeType: string;
  make: (bytes: number) => Buffer;
}

/** The families of issue 23, item 5. */
export const families: readonly Family[] = [
  {
    name: 'nested brackets (markdown)',
    mimeType: 'text/markdown',
    make: (n) => Buffer.from(`${'['.repeat(n / 2)}${']'.repeat(n / 2)}`, 'latin1'),
  },
  {
    name: 'pdf comment walks',
    mimeType: 'application/pdf',
    make: (n) => fill(n, `%${'y'.repeat(247)}stream\n`, '%PDF-1.4\n', '%%EOF\n'),
  },
  {
    name: 'html conditional comments',
    mimeType: 'text/plain',
    make: (n) => fill(n, '<!--[if IE]><b>x</b>', '<p>', '<![endif]-->'),
  },
  { name: 'polyglot tails (gif + script)', mimeType: 'image/gif', make: gifWithScriptTail },
  {
    name: 'entity and nesting depth (svg)',
    mimeType: 'image/svg+xml',
    make: (n) => {
      const depth = Math.floor(n / 2 / 12);
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg">${'<g>&#38;&amp;'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`,
        'latin1',
      );
    },
  },
  { name: 'markdown `![` runs', mimeType: 'text/markdown', make: (n) => fill(n, '![') },
];

function readLine(bytes: Buffer, mimeType: string) {
  const uri = 'demo://resource/adversarial';
  return {
    stage: 'read',
    server: 'demo',
    readFrom: 'demo',
    link: { type: 'resource_link', uri, name: 'adversarial', mimeType },
    elapsedMs: 5,
    result: { resultType: 'complete', contents: [{ uri, mimeType, blob: bytes.toString('base64') }] },
  };
}

/** Times every family at 1, 8 and 10 MiB; returns the verdict lines (`name`, `ok`, `figure`). */
export async function benchAdversarial(
  gate: Gate,
  rounds: number,
  row: (label: string, series: Series, base?: Series) => string,
): Promise<{ name: string; ok: boolean; figure: string }[]> {
  console.log('\n7. adversarial families (default.yaml, one item): time per byte at 8 MiB against 1 MiB');
  const verdicts: { name: string; ok: boolean; figure: string }[] = [];
  // BENCH_FAMILIES=pdf,polyglot runs the families whose name holds one of the words
  const picked = process.env.BENCH_FAMILIES?.split(',');
  for (const family of families) {
    if (picked !== undefined && !picked.some((word) => family.name.includes(word))) continue;
    const lines = [1, 8, 10].map((mib) => readLine(family.make(mib * MiB), family.mimeType));
    const effects: string[] = [];
    for (const line of lines) effects.push((await gate.decideRead(line)).effect);
    const [one, eight, ten] = (await interleave(
      Object.fromEntries(lines.map((line, i) => [String(i), async () => gate.decideRead(line)])),
      rounds,
      1,
    )) as [Series, Series, Series];
    const perByte = (s: Series, mib: number) => summary(s.rounds).median / mib;
    const ratio = perByte(eight, 8) / perByte(one, 1);
    const tenMs = summary(ten.rounds).median;
    console.log(row(`${family.name}: 1 MiB (${effects[0]})`, one));
    console.log(row(`${family.name}: 8 MiB (${effects[1]})`, eight, one));
    console.log(
      `  ${family.name}: per byte 8 MiB / 1 MiB ${ratio.toFixed(2)}×, 10 MiB ${fmtMs(tenMs)} (${effects[2]})`,
    );
    verdicts.push({
      name: `${family.name}: per byte 8 MiB ≤ 1.5× 1 MiB, 10 MiB ≤ 1 s`,
      ok: ratio <= 1.5 && tenMs <= 1000,
      figure: `${ratio.toFixed(2)}×, ${fmtMs(tenMs)}, ${effects.join('/')}`,
    });
  }
  return verdicts;
}
