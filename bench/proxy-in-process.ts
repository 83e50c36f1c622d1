// The proxy session in one process, for profiling (`docs/proxy.md`, what it costs): the host and the server are line
// transports over PassThrough streams, the server a few lines that answer at once, so the CPU per op is the proxy's
// own code (plus a little of the server's), with no pipes and no other process. The server's side refuses ambiguous
// member names, as the proxy's enforce mode does (`run-proxy.ts`).
// `node --import tsx/esm bench/proxy-in-process.ts read|links|flight` (`flight`: 1 000 reads written at once, per op); `PROF=warm` writes the CPU profile of the phases
// whose name holds `warm` to /tmp/proxy-in-process.cpuprofile (`PROF_OUT` names another file, `PROF_US` the sampling
// interval, default 25 µs). `BENCH_FROM=dist` loads the built modules (`npm run build`) instead of the sources,
// `BENCH_FROM=DIR` another build's `dist/`: tsx compiles with esbuild's `keepNames`, whose `__name` call on every
// closure made costs a few percent the installed bundle does not pay. `BENCH_VS=DIR` (another build's `dist/`, kept
// inside a folder whose package.json says `"type": "module"` and that reaches node_modules) runs a session of each in
// this one process and alternates them round by round after the warm-up (`BENCH_ROUNDS`, default 8): a before/after
// comparison that one machine's load cannot tilt. `HEAP=warm` writes a sampling heap profile of those phases (collected
// objects included) to /tmp/proxy-in-process.heapprofile (`HEAP_OUT` names another file).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type * as GateModule from '../src/gate/create-gate.ts';
import type * as PolicyModule from '../src/policy/load-policy.ts';
import type * as LineModule from '../src/proxy/line-transport.ts';
import type * as SessionModule from '../src/proxy/proxy-session.ts';

// the sources, `dist/`, or the `dist/` folder of another build
const rootOf = (built: string | undefined) =>
  built === undefined
    ? new URL('../src/', import.meta.url)
    : built === 'dist'
      ? new URL('../dist/', import.meta.url)
      : pathToFileURL(`${resolve(built)}/`);

const which = process.argv[2] ?? 'read';
const policyPath = new URL('../policies/default.yaml', import.meta.url).pathname;

// the server: the bench server's two answers (bench/proxy-bench-server.mjs), made once
const sentence = 'the quick brown fox jumps over the lazy dog. ';
const text = JSON.stringify({
  contents: [{ uri: 'bench://text/1024', mimeType: 'text/plain', text: sentence.repeat(23).slice(0, 1024) }],
});
const content: unknown[] = [{ type: 'text', text: '500 links' }];
for (let i = 0; i < 500; i += 1)
  content.push({ type: 'resource_link', uri: `bench://text/${1024 + i}`, name: `doc-${i}`, mimeType: 'text/plain' });
const links = JSON.stringify({ content });

/** One proxy session of the build at `built`, with its in-process host and server. */
async function proxyOf(built: string | undefined) {
  const root = rootOf(built);
  const module = async <T>(path: string): Promise<T> =>
    (await import(new URL(built === undefined ? path : path.replace(/\.ts$/, '.js'), root).href)) as T;
  const { createGate } = await module<typeof GateModule>('gate/create-gate.ts');
  const { loadPolicy } = await module<typeof PolicyModule>('policy/load-policy.ts');
  const { lineTransport } = await module<typeof LineModule>('proxy/line-transport.ts');
  const { proxySession } = await module<typeof SessionModule>('proxy/proxy-session.ts');
  const gate = createGate(await loadPolicy(policyPath));
  const [hostIn, hostOut, serverIn, serverOut] = [
    new PassThrough(),
    new PassThrough(),
    new PassThrough(),
    new PassThrough(),
  ];
  const cap = 64 * 1024 * 1024;
  const host = lineTransport({ input: hostIn, output: hostOut, maxLineBytes: cap, onUnreadable() {} });
  const upstream = lineTransport({
    input: serverOut,
    output: serverIn,
    maxLineBytes: cap,
    onUnreadable() {},
    refuseAmbiguous: true,
  });
  const session = proxySession(host, upstream, { gate, server: 'default', mode: 'enforce' });
  let buffered = '';
  serverIn.setEncoding('utf8');
  serverIn.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const id = /"id":(\d+)/.exec(line)?.[1] ?? 'null';
      serverOut.write(`{"jsonrpc":"2.0","id":${id},"result":${line.includes('tools/call') ? links : text}}\n`);
    }
  });
  let answered: (() => void) | null = null;
  // answers still to come before `answered` is called (1 but for `flight`)
  let left = 0;
  hostOut.on('data', (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      left -= 1;
      if (left === 0) answered?.();
    }
  });
  await session.start();
  let id = 0;
  // `count` requests written at once (the bench's `flight` row: 1 000 reads in flight), resolved once all are answered
  const call = (method: string, params: unknown, count = 1) =>
    new Promise<void>((resolve) => {
      answered = resolve;
      left = count;
      let lines = '';
      for (let i = 0; i < count; i += 1) {
        id += 1;
        lines += `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
      }
      hostIn.write(lines);
    });
  const op =
    which === 'read'
      ? () => call('resources/read', { uri: 'bench://text/1024' })
      : which === 'flight'
        ? () => call('resources/read', { uri: 'bench://text/1024' }, 1000)
        : () => call('tools/call', { name: 'links', arguments: { count: 500 } });
  const end = async () => {
    hostIn.end();
    await session.closed;
  };
  return { op, end };
}

const cpu = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
// CPU and wall µs per op of `n` ops
const timed = async (n: number, op: () => Promise<void>) => {
  const cpu0 = cpu();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1) await op();
  return { cpuUs: (cpu() - cpu0) / n, wallUs: ((performance.now() - t0) * 1000) / n };
};
const phase = async (name: string, n: number, op: () => Promise<void>) => {
  const profiling = process.env['PROF'] !== undefined && name.includes(process.env['PROF']);
  const inspector = new Session();
  if (profiling) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: Number(process.env['PROF_US'] ?? 25) });
    await inspector.post('Profiler.start');
  }
  // `HEAP=warm`: a sampling heap profile of what the phase allocates, collected objects included
  const heap = process.env['HEAP'] !== undefined && name.includes(process.env['HEAP']);
  if (heap) {
    inspector.connect();
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const { cpuUs, wallUs } = await timed(n, op);
  if (profiling) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(process.env['PROF_OUT'] ?? '/tmp/proxy-in-process.cpuprofile', JSON.stringify(profile));
  }
  if (heap) {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    writeFileSync(process.env['HEAP_OUT'] ?? '/tmp/proxy-in-process.heapprofile', JSON.stringify(profile));
  }
  console.log(`${name}: ${cpuUs.toFixed(1)} µs CPU/op, ${wallUs.toFixed(1)} µs wall/op`);
};

const reads = which === 'read';
const vs = process.env['BENCH_VS'];
const proxy = await proxyOf(process.env['BENCH_FROM']);
if (vs === undefined) {
  if (which === 'flight') {
    // CPU per op is per 1 000 reads in flight: per read, a thousandth of it
    await phase('flight first 2', 2, proxy.op);
    await phase('flight 2..10 (the bench row)', 8, proxy.op);
    await phase('flight 10..20', 10, proxy.op);
    await phase('flight warm', 10, proxy.op);
  } else if (reads) {
    await phase('read first 100', 100, proxy.op);
    await phase('read 100..1200 (the bench row)', 1100, proxy.op);
    await phase('read 1200..10000', 8800, proxy.op);
    await phase('read warm', 5000, proxy.op);
  } else {
    await phase('links first 2', 2, proxy.op);
    await phase('links 2..57', 55, proxy.op);
    await phase('links 57..500', 443, proxy.op);
    await phase('links warm', 200, proxy.op);
  }
} else {
  const other = await proxyOf(vs);
  const [warm, n] = which === 'flight' ? [10, 5] : reads ? [10000, 1000] : [500, 100];
  await timed(warm, other.op);
  await timed(warm, proxy.op);
  const got: { vs: number[]; from: number[] } = { vs: [], from: [] };
  for (let r = 0; r < Number(process.env['BENCH_ROUNDS'] ?? 8); r += 1) {
    got.vs.push((await timed(n, other.op)).cpuUs);
    got.from.push((await timed(n, proxy.op)).cpuUs);
  }
  const show = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
  console.log(`${which}, CPU µs per op, ${n} ops a round, alternated after ${warm} warm each`);
  // the least of the rounds beside the median: on a loaded machine other processes only ever add to a round's CPU
  const least = (xs: number[]) => Math.min(...xs).toFixed(0);
  const paired = median(got.from.map((x, r) => x / (got.vs[r] ?? x)));
  console.log(`  BENCH_VS   ${show(got.vs)}  (median ${median(got.vs).toFixed(0)}, least ${least(got.vs)})`);
  console.log(`  BENCH_FROM ${show(got.from)}  (median ${median(got.from).toFixed(0)}, least ${least(got.from)})`);
  console.log(`  BENCH_FROM ÷ BENCH_VS per round, median ${paired.toFixed(2)}`);
  await other.end();
}
await proxy.end();
