// The resident hook server under the conditions that make it as safe as the command hook (issue 42 item 3): it runs
// as `nobody` on a privileged loopback port, so the gated user can neither take the port nor stop the server; every
// request needs the session's secret; every failure, timeout or unknown event is answered closed, never `{}`.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRequested, toolReturned, webFetch } from '../hook/hook-events.ts';
import {
  asGatedUser,
  canStartAsRoot,
  freePrivilegedPort,
  gatedUid,
  postEvent,
  type ResidentProcess,
  startResidentProcess,
} from './resident-process.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const readme = 'guide://docs/readme.txt';

// root (or CI, where the suite must run and fails when it cannot): the server binds a privileged port then drops
describe.runIf(canStartAsRoot || process.env['CI'] === 'true')('the resident server', () => {
  let dir: string;
  let server: ResidentProcess;
  const secret = () => ({ 'X-Linkgate-Secret': server.secret });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkgate-resident-'));
    server = await startResidentProcess(await freePrivilegedPort(), dir);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs as the service user, not root and not the gated user', () => {
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    // real, effective, saved and filesystem uid: all nobody, so nothing can become root again
    expect(uids?.slice(1).map(Number)).toEqual([65534, 65534, 65534, 65534]);
  });

  it('the gated user cannot take its port, nor stop it', async () => {
    // a free privileged port: what the gated user would listen on once the server is down
    const free = await freePrivilegedPort();
    const bind = `require('node:net').createServer().once('error', (e) => console.log(e.code)).listen(${free}, '127.0.0.1', function () { console.log('bound'); this.close(); })`;
    expect(asGatedUser(bind)).toBe('EACCES');
    const stop = `try { process.kill(${server.child.pid}, 'SIGTERM'); console.log('stopped') } catch (e) { console.log(e.code) }`;
    expect(asGatedUser(stop)).toBe('EPERM');
    expect(server.child.exitCode).toBeNull();
  });

  it('writes a fresh secret readable by the gated user only (group, 0640)', async () => {
    const info = await stat(path.join(dir, 'secret'));
    expect(info.mode & 0o777).toBe(0o640);
    expect(info.uid).toBe(65534);
    expect(info.gid).toBe(gatedUid);
    expect(server.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a request without the secret, or with a wrong one, with a status that blocks', async () => {
    for (const headers of [{}, { 'X-Linkgate-Secret': 'wrong' }, { 'X-Linkgate-Secret': `${server.secret}x` }]) {
      const answer = await postEvent(server.port, readRequested('docs', readme), headers);
      expect(answer.status).toBe(401);
      expect(answer.text).not.toBe('{}');
      expect(answer.text).toContain('x-linkgate-secret');
    }
  });

  it('denies a refused read and lets an allowed one go with no decision', async () => {
    const refused = await postEvent(server.port, readRequested('docs', metadata, { session: 's-refused' }), secret());
    expect(refused.status).toBe(200);
    const decision = JSON.parse(refused.text).hookSpecificOutput;
    expect(decision.permissionDecision).toBe('deny');
    expect(decision.permissionDecisionReason).toContain('uri.non-public-address');
    expect(decision.permissionDecisionReason).not.toContain('169.254');
    const allowed = await postEvent(server.port, readRequested('docs', readme, { session: 's-allowed' }), secret());
    expect(allowed).toEqual({ status: 200, text: '{}' });
    const fetched = await postEvent(server.port, webFetch('http://10.0.0.1/admin'), secret());
    expect(JSON.parse(fetched.text).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('keeps what a tool result returned, in its own state: a link read from another server is refused', async () => {
    const session = { session: 's-same-server' };
    const link = { type: 'resource_link', uri: readme, name: 'readme' };
    const returned = await postEvent(server.port, toolReturned('docs', 'links', [link], session), secret());
    // after the tool ran it answers nothing: the command hook withholds
    expect(returned).toEqual({ status: 200, text: '{}' });
    const fromOther = await postEvent(server.port, readRequested('vault', readme, session), secret());
    expect(JSON.parse(fromOther.text).hookSpecificOutput.permissionDecisionReason).toContain('server.mismatch');
    const fromSame = await postEvent(server.port, readRequested('docs', readme, session), secret());
    expect(fromSame.text).toBe('{}');
  });

  it('answers every failure closed: a bad event, an unknown event, garbage, a wrong path', async () => {
    const { tool_input: _, ...noInput } = readRequested('docs', readme);
    const bad = await postEvent(server.port, noInput, secret());
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.text).hookSpecificOutput.permissionDecision).toBe('deny');
    const unknown = await postEvent(server.port, { hook_event_name: 'Stop', session_id: 's' }, secret());
    expect(unknown.status).toBe(400);
    const garbage = await postEvent(server.port, 'not json {', secret());
    expect(garbage.status).toBe(500);
    const wrongPath = await fetch(`http://127.0.0.1:${server.port}/`, {
      method: 'POST',
      headers: secret(),
      body: '{}',
    });
    expect(wrongPath.status).toBe(404);
    // a post event that fails is answered with its result withheld whole
    const post = { ...toolReturned('docs', 'links', []), tool_response: undefined, session_id: 7 };
    const failed = await postEvent(server.port, post, secret());
    expect(failed.status).toBe(200);
    const output = JSON.parse(failed.text).hookSpecificOutput.updatedToolOutput;
    expect(JSON.stringify(output)).toContain('linkgate withheld this tool result: the hook failed');
  });
});
