// The proxy session in one process, for profiling (`docs/proxy.md`, what it costs): the host and the server are line
// transports over PassThrough streams, the server a few lines that answer at once, so the CPU per op is the proxy's
// own code (plus a little of the server's), with no pipes and no other process.
// `node --import tsx/esm bench/proxy-in-process.ts read|links`; `PROF=warm` writes the CPU profile of the phases
// whose name holds `warm` to /tmp/proxy-in-process.cpuprofile (`PROF_OUT` names another file). `BENCH_FROM=dist`
// loads the built modules (`npm run build`) instead of the sources, `BENCH_FROM=DIR` another build's `dist/` (a
// before/after comparison): tsx compiles with esbuild's `keepNames`, whose `__name` call on every closure made costs
// a few percent the installed bundle does not pay.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type * as GateModule from '../src/gate/create-gate.ts';
import type * as PolicyModule from '../src/policy/load-policy.ts';
import type * as LineModule from '../src/proxy/line-transport.ts';
import type * as SessionModule from '../src/proxy/proxy-session.ts';

const built = process.env['BENCH_FROM'];
// the sources, `dist/`, or the `dist/` folder of another build (a before/after comparison)
const root =
  built === undefined
    ? new URL('../src/', import.meta.url)
    : built === 'dist'
      ? new URL('../dist/', import.meta.url)
      : pathToFileURL(`${resolve(built)}/`);
const module = async <T>(path: string): Promise<T> =>
  (await import(new URL(built === undefined ? path : path.replace(/\.ts$/, '.js'), root).href)) as T;
const { createGate } = await module<typeof GateModule>('gate/create-gate.ts');
const { loadPolicy } = await module<typeof PolicyModule>('policy/load-policy.ts');
const { lineTransport } = await module<typeof LineModule>('proxy/line-transport.ts');
const { proxySession } = await module<typeof SessionModule>('proxy/proxy-session.ts');

const which = process.argv[2] ?? 'read';
const gate = createGate(await loadPolicy(new URL('../policies/default.yaml', import.meta.url).pathname));
const [hostIn, hostOut, serverIn, serverOut] = [
  new PassThrough(),
  new PassThrough(),
  new PassThrough(),
  new PassThrough(),
];
const cap = 64 * 1024 * 1024;
const host = lineTransport({ input: hostIn, output: hostOut, maxLineBytes: cap, onUnreadable() {} });
const upstream = lineTransport({ input: serverOut, output: serverIn, maxLineBytes: cap, onUnreadable() {} });
const session = proxySession(host, upstream, { gate, server: 'default', mode: 'enforce' });

// the server: the bench server's two answers (bench/proxy-bench-server.mjs), made once
const sentence = 'the quick brown fox jumps over the lazy dog. ';
const text = JSON.stringify({
  contents: [{ uri: 'bench://text/1024', mimeType: 'text/plain', text: sentence.repeat(23).slice(0, 1024) }],
});
const content: unknown[] = [{ type: 'text', text: '500 links' }];
for (let i = 0; i < 500; i += 1)
  content.push({ type: 'resource_link', uri: `bench://text/${1024 + i}`, name: `doc-${i}`, mimeType: 'text/plain' });
const links = JSON.stringify({ content });
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
hostOut.on('data', (chunk: Buffer) => {
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) answered?.();
});
await session.start();
let id = 0;
const call = (method: string, params: unknown) =>
  new Promise<void>((resolve) => {
    answered = resolve;
    id += 1;
    hostIn.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
const cpu = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
const phase = async (name: string, n: number, op: () => Promise<void>) => {
  const profiling = process.env['PROF'] !== undefined && name.includes(process.env['PROF']);
  const inspector = new Session();
  if (profiling) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 25 });
    await inspector.post('Profiler.start');
  }
  const cpu0 = cpu();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1) await op();
  const cpuUs = (cpu() - cpu0) / n;
  const wallUs = ((performance.now() - t0) * 1000) / n;
  if (profiling) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(process.env['PROF_OUT'] ?? '/tmp/proxy-in-process.cpuprofile', JSON.stringify(profile));
  }
  console.log(`${name}: ${cpuUs.toFixed(1)} µs CPU/op, ${wallUs.toFixed(1)} µs wall/op`);
};
if (which === 'read') {
  const read = () => call('resources/read', { uri: 'bench://text/1024' });
  await phase('read first 100', 100, read);
  await phase('read 100..1200 (the bench row)', 1100, read);
  await phase('read 1200..10000', 8800, read);
  await phase('read warm', 5000, read);
} else {
  const tool = () => call('tools/call', { name: 'links', arguments: { count: 500 } });
  await phase('links first 2', 2, tool);
  await phase('links 2..57', 55, tool);
  await phase('links 57..500', 443, tool);
  await phase('links warm', 200, tool);
}
hostIn.end();
await session.closed;
