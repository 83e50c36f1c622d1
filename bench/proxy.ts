// Section 7 of `npm run bench`: the stdio proxy against a byte relay (its floor) and a direct connection.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interleave, summary, type Series } from './measure.ts';

const server = ['node', fileURLToPath(new URL('./proxy-bench-server.mjs', import.meta.url))];
const relay = ['node', fileURLToPath(new URL('./byte-relay.mjs', import.meta.url))];
// the CLI bundle, as installed (`linkgate proxy`); `BENCH_PROXY_CLI` names another build (a before/after comparison)
const cli = process.env.BENCH_PROXY_CLI ?? fileURLToPath(new URL('../dist/bin/linkgate.js', import.meta.url));
const policy = fileURLToPath(new URL('../policies/default.yaml', import.meta.url));
// another build's CLI timed beside the proxy in the same rounds (`BENCH_PROXY_VS=<old dist>/bin/linkgate.js`): an A/B
// on a shared machine, where two runs minutes apart differ more than the change measured
const vsCli = process.env.BENCH_PROXY_VS;

/** A connection that sends JSON-RPC requests and waits for their answer lines (parsed, as a host does). */
export interface Peer {
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** sends `count` requests at once and resolves when every answer is in */
  callMany(method: string, params: Record<string, unknown>, count: number): Promise<void>;
  close(): Promise<void>;
  /** CPU time the peer's own process (the relay, the proxy) has run so far, ns, all its threads; null off Linux */
  cpuNs(): number | null;
}

// the CPU time of a process, from the scheduler's own count per thread (Linux): on a shared machine it moves far less
// than the wall time of a round trip, which waits on every other process
export function cpuNsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns;
  } catch {
    return null;
  }
}

/** A peer over the stdio of `argv` (a host's view: one line per answer, parsed). */
export function connect(argv: readonly string[]): Peer {
  const [command, ...args] = argv;
  const child: ChildProcessWithoutNullStreams = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  let parts: Buffer[] = [];
  let waiting: ((line: string) => void) | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, end));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      start = end + 1;
      waiting?.(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  let id = 0;
  let failed: ((error: Error) => void) | null = null;
  // a peer that dies mid-call fails the bench loudly instead of leaving a promise no event will settle
  child.on('exit', (code) => failed?.(new Error(`\`${argv.join(' ')}\` exited with ${String(code)}`)));
  return {
    call(method, params) {
      id += 1;
      const answer = new Promise<unknown>((resolve, reject) => {
        waiting = (line) => resolve(JSON.parse(line));
        failed = reject;
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answer;
    },
    callMany(method, params, count) {
      let left = count;
      const answers = new Promise<void>((resolve, reject) => {
        waiting = (line) => {
          JSON.parse(line);
          left -= 1;
          if (left === 0) resolve();
        };
        failed = reject;
      });
      const lines: string[] = [];
      for (let i = 0; i < count; i += 1) {
        id += 1;
        lines.push(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }
      child.stdin.write(lines.join(''));
      return answers;
    },
    cpuNs: () => cpuNsOf(child.pid),
    async close() {
      failed = null;
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

type Row = (label: string, series: Series, base?: Series, perOps?: number) => string;
type Check = (name: string, ok: boolean, figure: string) => void;

/** The three ways to reach the bench server: directly, through the byte relay, through `linkgate proxy`. */
function peers(): { direct: Peer; relay: Peer; proxy: Peer; vs: Peer | null } {
  return {
    direct: connect(server),
    relay: connect([...relay, ...server]),
    proxy: connect(['node', cli, 'proxy', '--policy', policy, '--', ...server]),
    vs: vsCli === undefined ? null : connect(['node', vsCli, 'proxy', '--policy', policy, '--', ...server]),
  };
}

async function compare(
  title: string,
  work: (peer: Peer) => Promise<void>,
  ops: number,
  rounds: number,
  row: Row,
  check: Check,
  target: number,
): Promise<void> {
  const p = peers();
  // the first call of each starts its processes and warms their code paths
  await Promise.all([work(p.direct), work(p.relay), work(p.proxy), ...(p.vs === null ? [] : [work(p.vs)])]);
  // the CPU of the relay and the proxy in each timed round, read around their own work only (what the other peers
  // ran meanwhile is not theirs): a ratio per round, whose spread shows how far the machine moved it
  const cpu = { relay: [] as number[], proxy: [] as number[], vs: [] as number[] };
  const timed = (peer: Peer, into: number[] | null) => async () => {
    const before = peer.cpuNs();
    await work(peer);
    const after = peer.cpuNs();
    if (into !== null && before !== null && after !== null) into.push(after - before);
  };
  const [direct, byteRelay, proxy, vs] = (await interleave(
    {
      direct: timed(p.direct, null),
      relay: timed(p.relay, cpu.relay),
      proxy: timed(p.proxy, cpu.proxy),
      ...(p.vs === null ? {} : { vs: timed(p.vs, cpu.vs) }),
    },
    rounds,
  )) as [Series, Series, Series, Series | undefined];
  await Promise.all([p.direct.close(), p.relay.close(), p.proxy.close(), p.vs?.close()]);
  const median = (s: Series) => summary(s.rounds).median;
  const toRelay = median(proxy) / median(byteRelay);
  // per-round ratios give the spread: each round ran the three back to back
  const perRound = proxy.rounds.map((ms, i) => ms / (byteRelay.rounds[i] ?? ms));
  const spread = summary(perRound);
  console.log(`\n${title} (${ops} per round)`);
  console.log(row('direct (no process in between)', direct, undefined, ops));
  console.log(row('byte relay (copies bytes, parses nothing)', byteRelay, direct, ops));
  console.log(row('linkgate proxy', proxy, byteRelay, ops));
  if (vs !== undefined) console.log(row(`other build (${vsCli})`, vs, byteRelay, ops));
  console.log(
    `  proxy ÷ relay ${toRelay.toFixed(2)}× [${spread.min.toFixed(2)} – ${spread.max.toFixed(2)}] (goal ≤ ${target}×), proxy ÷ direct ${(median(proxy) / median(direct)).toFixed(2)}×`,
  );
  // the interleaving's two warm-up rounds are not counted
  const relayCpu = cpu.relay.slice(-rounds);
  const proxyCpu = cpu.proxy.slice(-rounds);
  if (relayCpu.length === rounds && proxyCpu.length === rounds) {
    const perOp = (ns: number) => ns / 1000 / ops;
    const ratios = summary(proxyCpu.map((ns, i) => ns / (relayCpu[i] ?? ns)));
    const proxyUs = perOp(summary(proxyCpu).median);
    const relayUs = perOp(summary(relayCpu).median);
    console.log(
      `  CPU of the process in between, median per round: proxy ${proxyUs.toFixed(1)} µs/op, relay ${relayUs.toFixed(1)} µs/op, ${(proxyUs / relayUs).toFixed(2)}× [${ratios.min.toFixed(2)} – ${ratios.max.toFixed(2)}] (goal ≤ ${target}×; steadier than wall time on a shared machine)`,
    );
    const vsCpu = cpu.vs.slice(-rounds);
    if (vsCpu.length === rounds) {
      const vsUs = perOp(summary(vsCpu).median);
      const paired = summary(proxyCpu.map((ns, i) => ns / (vsCpu[i] ?? ns)));
      console.log(
        `  other build: ${vsUs.toFixed(1)} µs/op, ${(vsUs / relayUs).toFixed(2)}× the relay; this build ÷ other per round ${paired.median.toFixed(2)} [${paired.min.toFixed(2)} – ${paired.max.toFixed(2)}]`,
      );
    }
  }
  check(
    `${title} ≤ ${target}× a byte relay`,
    toRelay <= target,
    `${toRelay.toFixed(2)}× (min–max ${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`,
  );
}

/**
 * The CPU per op of the relay and the proxy once each has run `warm` ops (in blocks of `ops`, side by side), over the
 * next `ops`: the rows above time processes that ran a few rounds only, so their CPU is mostly that of cold code and
 * caches; this line shows what a long-running proxy costs. Informational: the goal stays on the row above.
 */
async function warmCpu(work: (peer: Peer) => Promise<void>, ops: number, warm: number): Promise<void> {
  const relayPeer = connect([...relay, ...server]);
  const proxyPeer = connect(['node', cli, 'proxy', '--policy', policy, '--', ...server]);
  const vsPeer = vsCli === undefined ? null : connect(['node', vsCli, 'proxy', '--policy', policy, '--', ...server]);
  for (let done = 0; done < warm; done += ops) {
    await work(relayPeer);
    await work(proxyPeer);
    if (vsPeer !== null) await work(vsPeer);
  }
  const cpuOf = async (peer: Peer) => {
    const before = peer.cpuNs();
    await work(peer);
    const after = peer.cpuNs();
    return before === null || after === null ? null : (after - before) / 1000 / ops;
  };
  const relayCpu = await cpuOf(relayPeer);
  const proxyCpu = await cpuOf(proxyPeer);
  const vsCpu = vsPeer === null ? null : await cpuOf(vsPeer);
  await Promise.all([relayPeer.close(), proxyPeer.close(), vsPeer?.close()]);
  if (relayCpu === null || proxyCpu === null) return;
  console.log(
    `  CPU once warm (after ${warm.toLocaleString('en')} ops each): proxy ${proxyCpu.toFixed(1)} µs/op, relay ${relayCpu.toFixed(1)} µs/op, ${(proxyCpu / relayCpu).toFixed(2)}×${vsCpu === null ? '' : `; other build ${vsCpu.toFixed(1)} µs/op`}`,
  );
}

/**
 * Times the proxy's workloads; ratios against the relay, with the ratio to a direct connection beside them.
 * `BENCH_PROXY_ROWS=read,links` runs some rows only (names: read, text, png, links, flight); all by default.
 */
export async function benchProxy(rounds: number, row: Row, check: Check): Promise<void> {
  console.log('\n7. linkgate proxy, a round trip over stdio (each row: median [min – max] per round)');
  const only = process.env.BENCH_PROXY_ROWS?.split(',');
  const wanted = (name: string) => only === undefined || only.includes(name);
  const reads = (uri: string, n: number) => async (peer: Peer) => {
    for (let i = 0; i < n; i += 1) await peer.call('resources/read', { uri });
  };
  if (wanted('read')) {
    await compare('1 KiB resources/read', reads('bench://text/1024', 300), 300, rounds, row, check, 1.5);
    await warmCpu(reads('bench://text/1024', 1000), 1000, 10_000);
  }
  if (wanted('text'))
    await compare('8 MiB resources/read (text)', reads(`bench://text/${8 * 1024 * 1024}`, 2), 2, rounds, row, check, 2);
  if (wanted('png'))
    await compare('8 MiB png resources/read', reads(`bench://png/${8 * 1024 * 1024}`, 2), 2, rounds, row, check, 1.5);
  const links = async (peer: Peer) => {
    for (let i = 0; i < 20; i += 1) await peer.call('tools/call', { name: 'links', arguments: { count: 500 } });
  };
  if (wanted('links')) await compare('tools/call returning 500 links', links, 20, rounds, row, check, 1.5);
  const inFlight = (peer: Peer) => peer.callMany('resources/read', { uri: 'bench://text/1024' }, 1000);
  if (wanted('flight'))
    await compare('1 000 resources/read in flight (1 KiB each)', inFlight, 1000, rounds, row, check, 1.5);
}
