// `linkgate report` over a million generated records (issue 25): `--format json` beside reading and `JSON.parse`-ing
// the same lines (the floor any reader of the file pays), and the heap while the report reads: flat in the records.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { fmtMs, interleave, summary, type Series } from './measure.ts';

type Row = (label: string, series: Series, base?: Series, perOps?: number) => string;
type Check = (name: string, ok: boolean, figure: string) => void;
type ReportModule = typeof import('../src/cli/report-command.ts');
type TallyModule = typeof import('../src/report/report-tally.ts');

const policy = { id: 'default', version: '1.0.0', digest: `sha256:${'a'.repeat(64)}` };
const discovered = {
  at: '@AT@',
  tool: '@TOOL@',
  responseId: 7,
  contentIndex: 1,
  contentType: 'resource_link',
  uri: '@URI@',
  mimeType: 'text/plain',
  size: 1200,
  server: '@SERVER@',
  protocolVersion: '2025-11-25',
  client: { name: 'claude-code', version: '2.1.332' },
  serverInfo: { name: 'docs-server', version: '1.4.0' },
};
const requested = { at: '@AT@', requestId: 8, server: '@SERVER@', deadlineMs: 10000, transport: 'resources/read' };
const item = {
  index: 0,
  carrier: 'text',
  bytes: 1200,
  declaredMime: 'text/plain',
  kind: 'text',
  sha256: `sha256:${'b'.repeat(64)}`,
};
const received = {
  at: '@AT@',
  elapsedMs: 12,
  resultType: 'complete',
  error: null,
  inputRequests: null,
  itemCount: 1,
  textItems: 1,
  blobItems: 0,
  bytes: 1200,
  items: [item],
  ttlMs: null,
  cacheScope: null,
  cache: null,
};
const reason = (code: string, rule: string, stage: string) => ({
  code,
  rule,
  stage,
  message: `${code} fired for \`x\``,
});
const templates = [
  {
    uri: '@URI@',
    verdict: 'body-obtained',
    next: null,
    stages: {
      discovered,
      requested,
      received,
      delivered: { at: '@AT@', items: [0], bytes: 1200, characters: 1200, dropped: [] },
    },
    decisions: {
      link: { effect: 'allow', reasons: [], policy },
      read: { effect: 'allow', reasons: [], items: [{ index: 0, effect: 'allow', reasons: [] }], policy },
    },
  },
  {
    uri: '@URI@',
    verdict: 'link-only',
    next: { boundary: 'policy', hint: 'link denied by `links.denyNonPublicAddresses` (uri.non-public-address)' },
    stages: { discovered, requested: null, received: null, delivered: null },
    decisions: {
      link: {
        effect: 'deny',
        reasons: [reason('uri.non-public-address', 'links.denyNonPublicAddresses', 'link')],
        policy,
      },
      read: null,
    },
  },
  {
    uri: '@URI@',
    verdict: 'unverifiable',
    next: { boundary: 'origin-server', hint: 'no answer within the `10000` ms deadline: check the origin server' },
    stages: { discovered, requested, received: null, delivered: null },
    decisions: {
      link: { effect: 'allow', reasons: [], policy },
      read: { effect: 'deny', reasons: [reason('read.timeout', 'read.readTimeoutMs', 'read')], policy },
    },
  },
  {
    uri: '@URI@',
    verdict: 'link-only',
    next: { boundary: 'policy', hint: 'read denied by `content.allow` (content.executable)' },
    stages: { discovered, requested, received, delivered: null },
    decisions: {
      link: { effect: 'allow', reasons: [], policy },
      read: {
        effect: 'deny',
        reasons: [
          reason('content.executable', 'content.allow', 'content'),
          reason('content.mime-mismatch', 'content.allow', 'content'),
        ],
        items: [{ index: 0, effect: 'deny', reasons: [] }],
        policy,
      },
    },
  },
].map((t) => JSON.stringify(t));

/** Writes `n` records, one per line, to `file`: four record shapes, 20 servers, 50 tools, a minute apart. */
async function writeRecords(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  const t0 = Date.parse('2026-12-01T00:00:00Z');
  let chunk = '';
  for (let i = 0; i < n; i += 1) {
    const line = (templates[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : i % 13 === 0 ? 3 : 0] as string)
      .replaceAll('@AT@', new Date(t0 + i * 60_000).toISOString())
      .replaceAll('@URI@', `https://docs.example.com/guide/${i}.md`)
      .replaceAll('@SERVER@', `server-${i % 20}`)
      .replaceAll('@TOOL@', `tool-${i % 50}`);
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'close');
}

async function parseAll(file: string): Promise<number> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line !== '' && JSON.parse(line) !== null) n += 1;
  }
  return n;
}

function quietIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (c: Buffer) => (text += c.toString()));
  stderr.resume();
  return {
    io: { stdin: Readable.from([]), stdout, stderr, env: {}, stdoutIsTty: false, cwd: process.cwd() },
    text: () => text,
  };
}

/** Section 9: a million records through `report --format json`, and the report's heap as it reads them. */
export async function benchReport(
  row: Row,
  check: Check,
  records = Number(process.env.BENCH_REPORT_RECORDS ?? 1_000_000),
): Promise<void> {
  const { reportCommand } = (await import(
    new URL('../dist/cli/report-command.js', import.meta.url).href
  )) as ReportModule;
  const { createReportTally } = (await import(
    new URL('../dist/report/report-tally.js', import.meta.url).href
  )) as TallyModule;
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-bench-report-'));
  const file = path.join(dir, 'records.jsonl');
  try {
    await writeRecords(file, records);
    const bytes = (await stat(file)).size;
    console.log(
      `\n9. linkgate report --format json over ${records.toLocaleString('en')} generated records (${(bytes / 2 ** 20).toFixed(0)} MiB; one round = the whole file)`,
    );
    let links = 0;
    const series = await interleave(
      {
        parse: async () => {
          links += await parseAll(file);
        },
        report: async () => {
          const q = quietIo();
          const code = await reportCommand(['--format', 'json', file], q.io);
          if (code !== 0) throw new Error(`report exited ${code}`);
          links += (JSON.parse(q.text()) as { links: number }).links;
        },
      },
      Number(process.env.BENCH_REPORT_ROUNDS ?? 3),
      1,
    );
    const [parse, report] = series as [Series, Series];
    console.log(row('readline + JSON.parse (floor)', parse, undefined, records));
    console.log(row('report --format json', report, parse, records));
    const ratio = summary(report.rounds).median / summary(parse.rounds).median;
    check('report --format json ≤ 3× reading and JSON.parse of the lines (median)', ratio <= 3, `${ratio.toFixed(2)}×`);

    // the heap (after a collection) as the same tally reads the file: sampled every tenth of the records
    const gc = (globalThis as { gc?: () => void }).gc;
    const tally = createReportTally({ sinceMs: null, servers: [], verdicts: [], maxListed: 1000 });
    const heap: number[] = [];
    let line = 0;
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      line += 1;
      tally.addLine(file, line, text);
      if (line % (records / 10) === 0) {
        gc?.();
        heap.push(process.memoryUsage().heapUsed);
      }
    }
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    const first = heap[0] ?? 0;
    const last = heap.at(-1) ?? 0;
    console.log(
      `  heap after each tenth of the records: ${heap.map(mib).join(', ')}; records read ${tally.recordsRead.toLocaleString('en')}`,
    );
    check(
      'report heap flat: grows ≤ 2 MiB from the first tenth of the records to the end',
      gc !== undefined && last - first <= 2 * 2 ** 20 && tally.recordsRead === records,
      gc === undefined ? 'run with --expose-gc' : `${mib(last - first)} (${mib(first)} → ${mib(last)})`,
    );
    if (links === -1) console.log(fmtMs(links));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
