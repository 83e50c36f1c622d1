// What the 500-link `tools/call` row of section 7 can reach at all: in one run, round by round, the CPU per call of
// (a) the byte relay carrying the answer, (b) 500 bare `new URL()` parses of its uris, (c) one `JSON.parse` of its
// line, (d) 500 link decisions (`gate.decideLink`, the proxy's policy) and (e) the proxy itself, each as a ratio to
// (a). The quality bar asks for a WHATWG parse and a decision per link, so when (b) alone is over 1.5 × (a) the row's
// goal (proxy ≤ 1.5× relay) is below what the link-decision row allows (decision ≤ 3× a bare parse).
// `npm run build && node --import tsx/esm bench/proxy-floors.ts [rounds]` (default 9; `FLOORS_WARM` calls each first,
// default 100, so the processes run warm code as a long-running proxy does).
import { fileURLToPath } from 'node:url';
import { summary } from './measure.ts';
import { connect, type Peer } from './proxy.ts';

type Engine = typeof import('../src/index.ts');
const { createGate, loadPolicy } = (await import(new URL('../dist/index.js', import.meta.url).href)) as Engine;

const rounds = Number(process.argv[2] ?? 9);
const warm = Number(process.env['FLOORS_WARM'] ?? 100);
const calls = 20;
const count = 500;
const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const server = ['node', file('./proxy-bench-server.mjs')];
const policy = file('../policies/default.yaml');
const params = { name: 'links', arguments: { count } };

// the answer line as the bench server writes it (checked against its answer below)
const content: unknown[] = [{ type: 'text', text: `${count} links` }];
const uris: string[] = [];
for (let i = 0; i < count; i += 1) {
  uris.push(`bench://text/${1024 + i}`);
  content.push({ type: 'resource_link', uri: uris[i], name: `doc-${i}`, mimeType: 'text/plain' });
}
const line = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content } });
const inputs = (content.slice(1) as Record<string, unknown>[]).map((link) => ({
  stage: 'link' as const,
  server: 'default',
  link,
}));
const gate = createGate(await loadPolicy(policy));

const direct = connect(server);
const answered = JSON.stringify(await direct.call('tools/call', params));
await direct.close();
if (answered !== line) throw new Error('the bench server no longer answers the line this script parses');

const relay = connect(['node', file('./byte-relay.mjs'), ...server]);
const proxy = connect(['node', file('../dist/bin/linkgate.js'), 'proxy', '--policy', policy, '--', ...server]);

// CPU µs per call of a peer's process, around its own `calls` round trips only
const peerCpu = async (peer: Peer): Promise<number> => {
  const before = peer.cpuNs() ?? Number.NaN;
  for (let i = 0; i < calls; i += 1) await peer.call('tools/call', params);
  return ((peer.cpuNs() ?? Number.NaN) - before) / 1000 / calls;
};
// CPU µs per call of work done in this process, `calls` times
let sink = 0;
const ownCpu = (work: () => void): number => {
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) work();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / calls;
};
const parseUris = () => {
  for (const uri of uris) sink += new URL(uri).href.length;
};
const parseLine = () => {
  sink += (JSON.parse(line) as { id: number }).id;
};
const decide = () => {
  for (const input of inputs) sink += gate.decideLink(input).reasons.length;
};

for (let i = 0; i < warm; i += calls) {
  await peerCpu(relay);
  await peerCpu(proxy);
  ownCpu(parseUris);
  ownCpu(parseLine);
  ownCpu(decide);
}
const got = {
  relay: [] as number[],
  url: [] as number[],
  parse: [] as number[],
  decide: [] as number[],
  proxy: [] as number[],
};
for (let r = 0; r < rounds; r += 1) {
  got.relay.push(await peerCpu(relay));
  got.url.push(ownCpu(parseUris));
  got.parse.push(ownCpu(parseLine));
  got.decide.push(ownCpu(decide));
  got.proxy.push(await peerCpu(proxy));
}
await Promise.all([relay.close(), proxy.close()]);

const fmt = (xs: readonly number[], digits = 1) => {
  const s = summary(xs);
  return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)} – ${s.max.toFixed(digits)}]`;
};
const toRelay = (xs: readonly number[]) => xs.map((x, r) => x / (got.relay[r] ?? x));
console.log(
  `proxy floors, tools/call of ${count} links (${line.length} bytes), CPU µs per call, ${rounds} rounds of ${calls} calls after ${warm} warm: median [min – max]; ratio to the relay per round`,
);
const rows: [string, number[]][] = [
  ['(a) byte relay, the round trip', got.relay],
  [`(b) ${count} bare new URL()`, got.url],
  ['(c) JSON.parse of the answer line', got.parse],
  [`(d) ${count} gate.decideLink`, got.decide],
  ['(e) linkgate proxy, the round trip', got.proxy],
];
for (const [label, xs] of rows)
  console.log(`  ${label.padEnd(38)} ${fmt(xs).padStart(26)} µs   ${fmt(toRelay(xs), 2).padStart(22)}×`);
const floor = got.url.map((u, r) => u + (got.parse[r] ?? 0));
console.log(
  `  ${'(b)+(c), nothing else'.padEnd(38)} ${fmt(floor).padStart(26)} µs   ${fmt(toRelay(floor), 2).padStart(22)}×`,
);
const ratio = (xs: readonly number[]) => summary(toRelay(xs)).median;
const at = (x: number) => `${x.toFixed(2)}× the relay`;
const [url, both, decided] = [ratio(got.url), ratio(floor), ratio(got.decide)];
console.log(`  (b) alone: ${at(url)}${url > 1.5 ? ', over the 1.5× goal before anything else is done' : ''}`);
console.log(
  `  (b)+(c): ${at(both)}${both > 1.5 ? ': one JSON.parse and one URL parse per link are over the 1.5× goal' : ''}`,
);
console.log(
  `  (d): ${at(decided)}; decisions at the link-decision goal (3 × a bare parse) would be ${at(3 * url)}${3 * url > 1.5 ? ', over the 1.5× goal on their own' : ''}`,
);
if (sink === -1) console.log(sink);
