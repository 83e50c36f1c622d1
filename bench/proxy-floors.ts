// What the proxy rows of section 7 can reach at all: in one run, round by round, the CPU per call of the byte relay
// carrying the answer (a), of what any gate must do with it in this process, and of the proxy itself, each as a ratio
// to (a).
// - `tools/call` of 500 links: (b) 500 bare `new URL()` parses of its uris, (c) one `JSON.parse` of its line, (d) 500
//   link decisions (`gate.decideLink`, the proxy's policy). The quality bar asks for a WHATWG parse and a decision per
//   link, so when (b), (b)+(c) or 3 × (b) (the link-decision goal: ≤ 3× a bare parse) is over 1.5 × (a), the row's
//   goal (proxy ≤ 1.5× relay) is below what the issue's own link-decision row allows.
// - 1 KiB `resources/read`: (c) one `JSON.parse` of the answer line, (d) the read's link decision and read decision
//   (`gate.decideLink`, `gate.decideReadDetailed`, as the flow asks them).
// `npm run build && node --import tsx/esm bench/proxy-floors.ts [rounds]` (default 9; `FLOORS_WARM` calls each first,
// default 100 for the links and 20 times that for the reads, so the processes run warm code as a long-running proxy
// does; `FLOORS_ROWS=links` or `read` runs one; `FLOORS_VS=DIR` times the proxy of another build too, `DIR/bin/linkgate.js`
// round by round beside this one: a before/after comparison in one run).
import { fileURLToPath } from 'node:url';
import { summary } from './measure.ts';
import { connect, type Peer } from './proxy.ts';

type Engine = typeof import('../src/index.ts');
const { createGate, loadPolicy } = (await import(new URL('../dist/index.js', import.meta.url).href)) as Engine;

const rounds = Number(process.argv[2] ?? 9);
const warm = Number(process.env['FLOORS_WARM'] ?? 100);
const only = process.env['FLOORS_ROWS'];
const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const server = ['node', file('./proxy-bench-server.mjs')];
const policy = file('../policies/default.yaml');
const gate = createGate(await loadPolicy(policy));
let sink = 0;

/** One thing timed per round: CPU µs per call, of a peer's process or of work in this one. */
type Timed = { label: string; cpu: () => Promise<number> };

// CPU µs per call of a peer's process, around its own `calls` round trips only
const peerCpu =
  (peer: Peer, method: string, params: Record<string, unknown>, calls: number) => async (): Promise<number> => {
    const before = peer.cpuNs() ?? Number.NaN;
    for (let i = 0; i < calls; i += 1) await peer.call(method, params);
    return ((peer.cpuNs() ?? Number.NaN) - before) / 1000 / calls;
  };
// CPU µs per call of work done in this process, `calls` times
const ownCpu = (work: () => unknown, calls: number) => async (): Promise<number> => {
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) {
    const done = work();
    if (done instanceof Promise) await done;
  }
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / calls;
};

// the answer line of `method` as the bench server writes it, checked against its own answer
async function answerLine(method: string, params: Record<string, unknown>, result: unknown): Promise<string> {
  const line = JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  const direct = connect(server);
  const answered = JSON.stringify(await direct.call(method, params));
  await direct.close();
  if (answered !== line)
    throw new Error(`the bench server no longer answers the \`${method}\` line this script parses`);
  return line;
}

// times the relay, `own` and the proxy side by side; returns the medians of the ratios to the relay, by label
async function floors(
  title: string,
  method: string,
  params: Record<string, unknown>,
  calls: number,
  warmCalls: number,
  own: readonly Timed[],
): Promise<Map<string, number>> {
  const relay = connect(['node', file('./byte-relay.mjs'), ...server]);
  const proxy = connect(['node', file('../dist/bin/linkgate.js'), 'proxy', '--policy', policy, '--', ...server]);
  const timed: Timed[] = [
    { label: '(a) byte relay, the round trip', cpu: peerCpu(relay, method, params, calls) },
    ...own,
    { label: 'linkgate proxy, the round trip', cpu: peerCpu(proxy, method, params, calls) },
  ];
  const vs = process.env['FLOORS_VS'];
  const other =
    vs === undefined ? null : connect(['node', `${vs}/bin/linkgate.js`, 'proxy', '--policy', policy, '--', ...server]);
  if (other !== null)
    timed.push({ label: 'FLOORS_VS proxy, the round trip', cpu: peerCpu(other, method, params, calls) });
  for (let done = 0; done < warmCalls; done += calls) for (const t of timed) await t.cpu();
  const got = timed.map(() => [] as number[]);
  for (let r = 0; r < rounds; r += 1) for (const [i, t] of timed.entries()) got[i]?.push(await t.cpu());
  await Promise.all([relay.close(), proxy.close(), other?.close()]);
  const relayCpu = got[0] as number[];
  const toRelay = (xs: readonly number[]) => xs.map((x, r) => x / (relayCpu[r] ?? x));
  const fmt = (xs: readonly number[], digits = 1) => {
    const s = summary(xs);
    return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)} – ${s.max.toFixed(digits)}]`;
  };
  console.log(
    `\n${title}: CPU µs per call, ${rounds} rounds of ${calls} calls after ${warmCalls} warm; ratio to the relay per round`,
  );
  const ratios = new Map<string, number>();
  const show = (label: string, xs: readonly number[]) => {
    console.log(`  ${label.padEnd(40)} ${fmt(xs).padStart(26)} µs   ${fmt(toRelay(xs), 2).padStart(22)}×`);
    ratios.set(label, summary(toRelay(xs)).median);
  };
  timed.forEach((t, i) => show(t.label, got[i] as number[]));
  // the in-process rows together: nothing a gate could skip
  const sum = relayCpu.map((_, r) => own.reduce((total, _t, i) => total + (got[i + 1]?.[r] ?? 0), 0));
  if (own.length > 1) show('all of the above but the relay, summed', sum);
  // the two builds paired round by round: what the load of one round does to both cancels out
  if (other !== null) {
    const mine = got[timed.length - 2] as number[];
    const theirs = got[timed.length - 1] as number[];
    const paired = summary(mine.map((x, r) => x / (theirs[r] ?? x))).median;
    console.log(`  this proxy ÷ the FLOORS_VS proxy, round by round: median ${paired.toFixed(3)}`);
  }
  return ratios;
}

const at = (x: number | undefined) => `${(x ?? Number.NaN).toFixed(2)}× the relay`;

if (only === undefined || only === 'links') {
  const count = 500;
  const params = { name: 'links', arguments: { count } };
  const content: unknown[] = [{ type: 'text', text: `${count} links` }];
  const uris: string[] = [];
  for (let i = 0; i < count; i += 1) {
    uris.push(`bench://text/${1024 + i}`);
    content.push({ type: 'resource_link', uri: uris[i], name: `doc-${i}`, mimeType: 'text/plain' });
  }
  const line = await answerLine('tools/call', params, { content });
  const inputs = (content.slice(1) as Record<string, unknown>[]).map((link) => ({
    stage: 'link' as const,
    server: 'default',
    link,
  }));
  const ratios = await floors(`tools/call of ${count} links (${line.length} bytes)`, 'tools/call', params, 20, warm, [
    {
      label: `(b) ${count} bare new URL()`,
      cpu: ownCpu(() => {
        for (const uri of uris) sink += new URL(uri).href.length;
      }, 20),
    },
    { label: '(c) JSON.parse of the answer line', cpu: ownCpu(() => JSON.parse(line), 20) },
    {
      label: `(d) ${count} gate.decideLink`,
      cpu: ownCpu(() => {
        for (const input of inputs) sink += gate.decideLink(input).reasons.length;
      }, 20),
    },
  ]);
  const url = ratios.get(`(b) ${count} bare new URL()`) ?? Number.NaN;
  const parse = ratios.get('(c) JSON.parse of the answer line') ?? Number.NaN;
  console.log(`  (b) alone: ${at(url)}${url > 1.5 ? ', over the 1.5× goal before anything else is done' : ''}`);
  console.log(
    `  (b)+(c): ${at(url + parse)}${url + parse > 1.5 ? ': one JSON.parse and one URL parse per link are over the 1.5× goal' : ''}`,
  );
  console.log(
    `  decisions at the link-decision goal (3 × a bare parse) would be ${at(3 * url)}${3 * url > 1.5 ? ', over the 1.5× goal on their own' : ''}`,
  );
}

if (only === undefined || only === 'read') {
  const uri = 'bench://text/1024';
  const params = { uri };
  const sentence = 'the quick brown fox jumps over the lazy dog. ';
  const text = sentence.repeat(Math.ceil(1024 / sentence.length)).slice(0, 1024);
  const result = { contents: [{ uri, mimeType: 'text/plain', text }] };
  const line = await answerLine('resources/read', params, result);
  const link = { type: 'resource_link', uri, name: 'doc', mimeType: 'text/plain' };
  const decide = async () => {
    sink += gate.decideLink({ stage: 'link', server: 'default', link }).reasons.length;
    const read = { stage: 'read', server: 'default', readFrom: 'default', link, elapsedMs: 1, result };
    sink += (await gate.decideReadDetailed(read)).decision.reasons.length;
  };
  const ratios = await floors('1 KiB resources/read', 'resources/read', params, 300, 20 * warm, [
    { label: '(c) JSON.parse of the answer line', cpu: ownCpu(() => JSON.parse(line), 300) },
    { label: '(d) its link and read decisions', cpu: ownCpu(decide, 300) },
  ]);
  console.log(
    `  a JSON.parse and the two decisions: ${at(ratios.get('all of the above but the relay, summed'))} (goal of the row: 1.5×)`,
  );
}
if (sink === -1) console.log(sink);
