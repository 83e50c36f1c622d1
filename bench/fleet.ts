// A simulated fleet (issue 44): N pullers, each with its own state folder, against one real OCI registry on loopback
// (Debian's docker-registry). Measured: the first activation of the whole fleet, the requests and bytes of one
// unchanged poll, and the time from a push of the next revision to the whole fleet active (every puller polling once,
// at most `BENCH_FLEET_CONCURRENCY` at a time). Bounded: `BENCH_FLEET_SIZE` pullers (default 1000) and a deadline.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registryBinary, startRegistry } from '../test/bundle/docker-registry.ts';

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;
type Check = (name: string, ok: boolean, figure: string) => void;

/** Counts what went over the wire: requests, and response bytes (status line, headers and body). */
interface Wire {
  requests: number;
  bytes: number;
}

function countingFetch(wire: Wire): (input: string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init);
    wire.requests += 1;
    let headerBytes = `HTTP/1.1 ${response.status} ${response.statusText}\r\n\r\n`.length;
    response.headers.forEach((value, name) => {
      headerBytes += name.length + value.length + 4;
    });
    wire.bytes += headerBytes + Number(response.headers.get('content-length') ?? 0);
    return response;
  };
}

// runs `task(i)` for i < n with at most `limit` at once; stops starting new ones after the deadline
async function pool(n: number, limit: number, deadline: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < n && performance.now() < deadline) {
      const i = next;
      next += 1;
      await task(i);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return done;
}

/** Section 12: the fleet bench. */
export async function benchFleet(check: Check): Promise<void> {
  const size = Number(process.env.BENCH_FLEET_SIZE ?? 1000);
  const limit = Number(process.env.BENCH_FLEET_CONCURRENCY ?? 64);
  const budgetMs = Number(process.env.BENCH_FLEET_DEADLINE_MS ?? 240_000);
  console.log(`\n12. a fleet of ${size} pullers against one OCI registry on loopback (${limit} at a time)`);
  const binary = await registryBinary();
  if (!binary.ok) {
    console.log(`  skipped: ${binary.reason}`);
    check('fleet bench ran', false, binary.reason);
    return;
  }
  const { buildBundle, signBundle } = (await import(
    dist('bundle/build-bundle.js')
  )) as typeof import('../src/bundle/build-bundle.ts');
  const { pushOciBundle, ociBundleSource } = (await import(
    dist('bundle/oci-bundle.js')
  )) as typeof import('../src/bundle/oci-bundle.ts');
  const { parseOciReference } = (await import(
    dist('bundle/oci-reference.js')
  )) as typeof import('../src/bundle/oci-reference.ts');
  const { pullBundle } = (await import(dist('bundle/pull-bundle.js'))) as typeof import('../src/bundle/pull-bundle.ts');
  const { parseOpenSshPrivateKey } = (await import(
    dist('review/openssh-private-key.js')
  )) as typeof import('../src/review/openssh-private-key.ts');
  const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-bench-fleet-'));
  const registry = await startRegistry(binary.bin);
  try {
    const keyFile = path.join(scratch, 'key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'alice@example.com', '-f', keyFile], {
      stdio: 'ignore',
    });
    const key = parseOpenSshPrivateKey(readFileSync(keyFile, 'utf8'), 'key');
    const publicKey = readFileSync(`${keyFile}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    const allowedSigners = path.join(scratch, 'allowed_signers');
    writeFileSync(allowedSigners, `alice@example.com namespaces="linkgate-policy,linkgate-bundle" ${publicKey}\n`);
    const reference = `oci://${registry.host}/security/linkgate-policy:stable`;
    const ref = parseOciReference(reference, true);
    const publish = async (revision: number) => {
      const policy = path.join(scratch, `policy-${revision}.yaml`);
      writeFileSync(
        policy,
        readFileSync('policies/default.yaml', 'utf8')
          .replace(/^version: .*$/m, `version: ${revision}.0.0`)
          .replace(/^( {2}reviewers: ).*$/m, '$1[alice@example.com]')
          .replace(/^( {2}expires: ).*$/m, '$12999-01-01'),
      );
      execFileSync('ssh-keygen', ['-Y', 'sign', '-n', 'linkgate-policy', '-f', keyFile, policy], { stdio: 'ignore' });
      const out = path.join(scratch, `bundle-${revision}`);
      await buildBundle(policy, { revision, outDir: out, linkgateVersion: '0.1.0' });
      await signBundle(out, key);
      await pushOciBundle(out, ref);
    };
    const wire: Wire = { requests: 0, bytes: 0 };
    const source = ociBundleSource(ref, reference, { fetch: countingFetch(wire) });
    const results = new Map<string, number>();
    const pollAll = async (expect: number) => {
      wire.requests = 0;
      wire.bytes = 0;
      results.clear();
      const started = performance.now();
      const done = await pool(size, limit, started + budgetMs, async (i) => {
        const r = await pullBundle({
          stateDir: path.join(scratch, 'fleet', String(i)),
          source,
          allowedSigners,
          linkgateVersion: '0.1.0',
        });
        results.set(r.result, (results.get(r.result) ?? 0) + 1);
        if (r.result !== 'refused' && r.revision !== expect)
          results.set('wrong revision', (results.get('wrong revision') ?? 0) + 1);
      });
      return { ms: performance.now() - started, done, requests: wire.requests, bytes: wire.bytes };
    };
    const tally = () => [...results].map(([k, v]) => `${v} ${k}`).join(', ');

    await publish(1);
    const first = await pollAll(1);
    console.log(
      `  first activation, revision 1:       ${(first.ms / 1000).toFixed(1)} s for ${first.done} pullers (${tally()}); ${(first.requests / first.done).toFixed(1)} requests, ${Math.round(first.bytes / first.done)} bytes each`,
    );
    const unchanged = await pollAll(1);
    const perPollRequests = unchanged.requests / unchanged.done;
    const perPollBytes = unchanged.bytes / unchanged.done;
    console.log(
      `  unchanged poll:                     ${perPollRequests.toFixed(2)} requests, ${Math.round(perPollBytes)} response bytes per poll (${tally()}); the fleet's pass took ${(unchanged.ms / 1000).toFixed(1)} s`,
    );
    const pushStarted = performance.now();
    await publish(2);
    const pushMs = performance.now() - pushStarted;
    const next = await pollAll(2);
    const activated = results.get('activated') ?? 0;
    const toFleetMs = pushMs + next.ms;
    console.log(
      `  push of revision 2 to whole fleet:  ${(toFleetMs / 1000).toFixed(1)} s (push ${Math.round(pushMs)} ms, then every puller polling once: ${tally()}); add the poll interval in production`,
    );
    check(
      'an unchanged poll is one request',
      perPollRequests === 1,
      `${perPollRequests.toFixed(2)} requests, ${Math.round(perPollBytes)} bytes`,
    );
    check(
      `push to the whole fleet of ${size} active`,
      activated === size && next.done === size,
      `${activated}/${size} activated in ${(toFleetMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await registry.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
