// Each condition of the resident hook (docs/resident-hook.md) as its own check, and the fail-closed answers of the
// server's event handling: a failure, a timeout and an unknown event never answer `{}`.
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { answerEvent } from '../../src/resident/resident-answer.ts';
import {
  listenerUid,
  portProblem,
  unprivilegedPortStart,
  usersProblem,
} from '../../src/resident/resident-conditions.ts';
import { secretCheck } from '../../src/resident/resident-secret.ts';
import { ResidentStates } from '../../src/resident/resident-states.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

describe('the conditions', () => {
  it('reads the first unprivileged port from the kernel, and says why when it cannot', () => {
    const start = unprivilegedPortStart(() => '1024\n');
    expect(start).toBe(process.platform === 'linux' ? 1024 : expect.any(String));
    if (process.platform !== 'linux') return;
    expect(unprivilegedPortStart(() => 'many')).toMatch(/does not hold a port number/);
    const missing = unprivilegedPortStart(() => {
      throw Object.assign(new Error('no'), { code: 'ENOENT' });
    });
    expect(missing).toMatch(/cannot be read \(ENOENT\)/);
  });

  it('takes only a port the gated user cannot bind', () => {
    expect(portProblem(873, 1024)).toBeUndefined();
    expect(portProblem(1024, 1024)).toMatch(/not below .* the gated user could bind it/);
    expect(portProblem(8080, 1024)).toMatch(/could bind it/);
    // `sysctl net.ipv4.ip_unprivileged_port_start=0`: every port is anyone's
    expect(portProblem(80, 0)).toMatch(/could bind it/);
    expect(portProblem(0, 1024)).toMatch(/not a tcp port/);
    expect(portProblem(873, '`darwin` has no port only a service user may bind')).toMatch(/darwin/);
  });

  it('takes only a service user that is neither root nor the gated user, for a gated user that is not root', () => {
    expect(usersProblem(65534, 1000)).toBeUndefined();
    expect(usersProblem(65534, 0)).toMatch(/gated user is root/);
    expect(usersProblem(1000, 1000)).toMatch(/runs as the gated user/);
    expect(usersProblem(0, 1000)).toMatch(/runs as root/);
  });

  it("finds the owner of the socket listening on a port in the kernel's table", () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:036D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1',
      '   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 2 1',
      '   2: 0100007F:B302 0100007F:1F91 01 00000000:00000000 00:00000000 00000000  1000        0 3 1',
      '   3: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 4 1',
    ].join('\n');
    expect(listenerUid(877, () => table)).toBe(0);
    expect(listenerUid(8080, () => table)).toBe(1000);
    // listening on every address counts; a connection to the port does not
    expect(listenerUid(8081, () => table)).toBe(1001);
    expect(listenerUid(9999, () => table)).toBeUndefined();
  });

  it('checks the secret whole, and nothing else passes', () => {
    const check = secretCheck('s3cret-value');
    expect(check('s3cret-value')).toBe(true);
    for (const given of ['s3cret-valu', 's3cret-value ', '', undefined, ['s3cret-value', 's3cret-value']])
      expect(check(given)).toBe(false);
  });
});

describe('the answers', () => {
  const handling = async (states = new ResidentStates(), deadlineMs = 10_000) => {
    const gate = createGate(await loadPolicy(`${repoRoot}/policies/default.yaml`));
    return { gate: () => gate, states, deadlineMs, record: async () => undefined };
  };

  it('an event whose work does not end within the deadline is denied before the call', async () => {
    // state that never answers: the event cannot finish
    const stuck = { open: () => new Promise<never>(() => undefined) } as unknown as ResidentStates;
    const answer = await answerEvent(JSON.stringify(readRequested('docs', 'guide://a')), await handling(stuck, 50));
    expect(answer.status).toBe(200);
    const decision = JSON.parse(answer.body).hookSpecificOutput;
    expect(decision.permissionDecision).toBe('deny');
    expect(decision.permissionDecisionReason).toMatch(/did not answer within 50 ms/);
  });

  it('after a tool ran, a failure withholds the whole result; an unknown event gets a status that blocks', async () => {
    const stuck = { open: () => new Promise<never>(() => undefined) } as unknown as ResidentStates;
    const link = { type: 'resource_link', uri: 'guide://a', name: 'a' };
    const post = await answerEvent(JSON.stringify(toolReturned('docs', 'links', [link])), await handling(stuck, 50));
    expect(post.body).toContain('linkgate withheld this tool result: the hook failed');
    const unknown = await answerEvent(JSON.stringify({ hook_event_name: 'PermissionRequest' }), await handling());
    expect(unknown.status).toBe(400);
    const none = await answerEvent('[]', await handling());
    expect(none.status).toBe(500);
  });

  it('forgets the oldest session past its cap, and keeps no pending read', async () => {
    const states = new ResidentStates(2);
    const a = await states.open('a');
    await states.open('b');
    await states.open('c');
    expect(states.size).toBe(2);
    expect(await states.open('a')).not.toBe(a);
    const state = await states.open('d');
    await state.putPending('t1', {} as never);
    expect(await state.takePending('t1')).toBeUndefined();
  });
});
