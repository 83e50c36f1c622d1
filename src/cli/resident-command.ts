import { resolve as resolvePath } from 'node:path';
import { PassThrough } from 'node:stream';
import { GateError } from '../errors.ts';
import { holdPolicy } from '../gate/reload-policy.ts';
import { appendRecordsFile } from '../hook/records-file.ts';
import { hookDeadlineMs } from './hook-command.ts';
import {
  listenerUid,
  portProblem,
  unprivilegedPortStart,
  usersProblem,
  userIds,
} from '../resident/resident-conditions.ts';
import { residentConditionLines, residentSettings } from '../resident/resident-setup.ts';
import { ResidentStates } from '../resident/resident-states.ts';
import { startResident } from '../resident/start-resident.ts';
import { type PolicyWatch, reloadLine, watchPolicyFiles } from '../resident/watch-policy.ts';
import type { CliIo } from './cli-io.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { hookCommand } from './hook-command.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

/**
 * `linkgate resident claude-code` (docs/resident-hook.md): a resident server for Claude Code's HTTP hooks, started only
 * where it is as safe as the command hook; `--print-config` prints the set-up that uses it, or refuses.
 */
export const residentDefinition = defineCommand({
  name: 'resident',
  summary: "serve claude code's http hooks from one resident process, where that is as safe as the command hook",
  synopsis:
    'claude-code --port N --gated-user USER [--user USER] --secret-file FILE --policy FILE [--allowed-signers FILE] [--records FILE]',
  description: [
    "a resident server for claude code's pre-read http hook: the same decisions, notices and records as `linkgate hook claude-code`, without starting a process per event. claude code lets a read go ahead on any 2xx answer with an empty body, so whoever holds the port decides: the server starts only where the gated user can neither take its port nor stop it, and refuses to start otherwise.",
    "conditions: the port is below `net.ipv4.ip_unprivileged_port_start` (linux only); the server runs as a service user that is neither root nor the gated user (started as root, it binds the port and then becomes `--user` for good; started as that user, it needs CAP_NET_BIND_SERVICE); the gated user is not root. every start writes a fresh secret to `--secret-file` (group the gated user's, mode 0640), and every request without it in `X-Linkgate-Secret` is refused with a status that blocks.",
    'answers: a refused read is a deny; any failure, timeout or unknown event before the call is a deny or a status that blocks, never an empty 2xx. after a tool ran the server keeps what the result returned (links, for the next read, and the addresses of refused ones) and withholds only a result naming an address the session refused earlier: the command hook withholds the rest, because a post hook that does not answer lets the result through for every hook type. the policy is reloaded when a new file replaces the policy file (one written in place may be half written: it is not loaded), or its `.sig` or the allowed signers change (and on SIGHUP); a file that does not load keeps the policy in force, and each outcome is one line on stderr.',
    '`--print-config [--records FILE] [--state DIR] [--server NAME -- COMMAND [ARG…]]` prints the claude code set-up (the http hook before a call, the command hook and the http hook after it) with its conditions on stderr, or refuses (exit 2) when they cannot hold on this machine.',
  ],
  options: {
    policy: { type: 'string', value: 'FILE', description: 'the policy file (yaml)' },
    port: { type: 'string', value: 'N', description: 'the loopback port, below net.ipv4.ip_unprivileged_port_start' },
    'gated-user': {
      type: 'string',
      value: 'USER',
      description: 'the user claude code and its agent run as (name or uid); default for `--print-config`: this user',
    },
    user: {
      type: 'string',
      value: 'USER',
      description: 'the service user the server runs as (name or uid): required when started as root',
    },
    'secret-file': {
      type: 'string',
      value: 'FILE',
      description: 'where each start writes its fresh secret (claude code reads it into $LINKGATE_RESIDENT_SECRET)',
    },
    records: {
      type: 'string',
      value: 'FILE',
      description:
        "append one json record per judged link to this file (the server's own; with `--print-config`, the command hook's)",
    },
    state: { type: 'string', value: 'DIR', description: "with `--print-config`: the command hook's state folder" },
    server: {
      type: 'string',
      value: 'NAME',
      description:
        'with `--print-config`: also print the `linkgate proxy` entry that fronts server NAME (command after `--`)',
    },
    'print-config': {
      type: 'boolean',
      description:
        'print the claude code set-up that uses the server, with its conditions, or refuse when they cannot hold',
    },
    ...reviewOptions,
  },
  positionals: [{ name: 'HOST', description: 'the host whose http hooks post to the server: claude-code' }],
  afterDashes: {
    name: 'COMMAND [ARG…]',
    description: 'with `--print-config --server NAME`: the command line that starts the server the proxy fronts',
  },
  example:
    'linkgate resident claude-code --print-config --port 873 --gated-user nobody --user daemon --policy policies/default.yaml',
  exitCodes: {
    0: 'the server stopped (SIGTERM, SIGINT), or the set-up was printed',
    2: 'usage error, a policy that does not load, or a condition that does not hold: the server does not start and no set-up is printed',
  },
  run: async ({ values, positionals, rest, usageError }, io) => {
    const [host, extra] = positionals;
    if (host !== 'claude-code')
      return usageError(
        host === undefined
          ? 'missing host: claude-code'
          : `unknown host \`${host}\`: claude-code (the one host measured with http hooks that fail closed)`,
      );
    if (extra !== undefined) return usageError(`unexpected argument \`${extra}\``);
    if (values.port === undefined || !/^\d{1,5}$/.test(values.port)) return usageError('`--port N` is required');
    const port = Number(values.port);
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    if (values['print-config'] === true) return printConfig(values, rest, port, io);
    if (values.policy === undefined) return usageError('`--policy FILE` is required');
    if (values['gated-user'] === undefined) return usageError('`--gated-user USER` is required');
    if (values['secret-file'] === undefined) return usageError('`--secret-file FILE` is required');
    try {
      const policyFile = resolvePath(io.cwd, values.policy);
      const holder = await holdPolicy(policyFile, review);
      const records = values.records === undefined ? undefined : resolvePath(io.cwd, values.records);
      const started = await startResident({
        port,
        gatedUser: values['gated-user'],
        ...(values.user === undefined ? {} : { user: values.user }),
        secretFile: resolvePath(io.cwd, values['secret-file']),
        gate: () => holder.gate(),
        states: new ResidentStates(),
        deadlineMs: hookDeadlineMs,
        record: async (record) => {
          if (records !== undefined) await appendRecordsFile(records, `${JSON.stringify(record)}\n`);
        },
      });
      // written by the service user from now on: a path it cannot write would fail every refused read closed, so the
      // start fails instead (an empty append creates the file as the service user's)
      if (records !== undefined)
        await appendRecordsFile(records, '').catch(async (error: unknown) => {
          await started.close();
          throw error;
        });
      io.stderr.write(
        `linkgate resident: listening on 127.0.0.1:${started.port} as uid ${started.uid} for gated uid ${started.gatedUid}\n`,
      );
      // the policy, its review signatures and the allowed signers: a change to any reloads the policy, as SIGHUP does
      // (the policy itself only when a new file replaced it: one written in place may be half written)
      const rests = [`${policyFile}.sig`, ...(review.allowedSigners === undefined ? [] : [review.allowedSigners])];
      let watch: PolicyWatch | undefined;
      try {
        watch = watchPolicyFiles(
          policyFile,
          rests,
          () => holder.reload(),
          (outcome) => io.stderr.write(`${reloadLine(outcome, 'policy files changed')}\n`),
        );
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        io.stderr.write(`${reloadLine({ watchFailed: why }, '')}\n`);
      }
      return await new Promise<number>((resolve) => {
        const stop = () => {
          process.off('SIGHUP', reload);
          watch?.close();
          void started.close().then(() => resolve(0));
        };
        const reload = () => {
          void holder.reload().then((outcome) => {
            // the policy as SIGHUP loaded it is the one later changes are judged against
            if (outcome.ok) watch?.loaded();
            io.stderr.write(`${reloadLine(outcome, 'SIGHUP')}\n`);
          });
        };
        process.on('SIGHUP', reload);
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
    } catch (error) {
      io.stderr.write(`linkgate resident: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  },
});

/** `linkgate resident` as a runnable command. */
export const residentCommand = commandRunner(residentDefinition);

// the command hook's printed set-up (its policy check, records check, command line) with the resident server in it
async function printConfig(
  values: Record<string, string | boolean | undefined>,
  rest: readonly string[],
  port: number,
  io: CliIo,
): Promise<number> {
  const fail = (why: string) => (io.stderr.write(`linkgate resident: ${why}\n`), 2);
  try {
    const start = unprivilegedPortStart();
    const portLine = portProblem(port, start);
    if (portLine !== undefined || typeof start === 'string')
      return fail(`the resident hook is not safe here: ${portLine ?? start}`);
    const gatedName =
      typeof values['gated-user'] === 'string' ? values['gated-user'] : String(process.getuid?.() ?? '');
    const gated = userIds(gatedName);
    const server = typeof values.user === 'string' ? values.user : undefined;
    const users = usersProblem(server === undefined ? -1 : userIds(server).uid, gated.uid);
    if (users !== undefined) return fail(`the resident hook is not safe here: ${users}`);
    // a server already listening: its socket is not the gated user's
    const owner = listenerUid(port);
    if (owner !== undefined && owner === gated.uid)
      return fail(`the resident hook is not safe here: port ${port} is held by the gated user (uid ${gated.uid})`);
    const args = ['claude-code', '--print-config'];
    for (const name of ['policy', 'records', 'state', 'allowed-signers', 'min-signers', 'policy-id', 'min-version'])
      if (typeof values[name] === 'string') args.push(`--${name}`, values[name]);
    if (values['strict-files'] === true) args.push('--strict-files');
    if (typeof values.server === 'string') args.push('--server', values.server, '--', ...rest);
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await hookCommand(args, { ...io, stdout });
    if (code !== 0) return code;
    const printed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const lines = residentConditionLines(port, server ?? 'a service user', gatedName, start);
    if (owner === undefined)
      lines.push(`- nothing listens on port ${port} yet: until the server starts, every read is refused`);
    io.stderr.write(`linkgate resident: ${lines.join('\nlinkgate resident: ')}\n`);
    io.stdout.write(`${JSON.stringify(residentSettings(printed, port), null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof GateError) return fail(error.message);
    throw error;
  }
}
