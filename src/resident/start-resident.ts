// Starting the resident server the only way it is safe: on a privileged loopback port, as a service user that is
// neither root nor the gated user, with a fresh secret. Started as root it binds the port, writes the secret file
// (its group the gated user's, mode 0640) and then becomes the service user for good; started as the service user it
// needs CAP_NET_BIND_SERVICE to bind. Any condition that does not hold refuses the start (nothing listens).
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { GateError } from '../errors.ts';
import type { ResidentHandling } from './resident-answer.ts';
import { portProblem, unprivilegedPortStart, usersProblem, userIds } from './resident-conditions.ts';
import { newSecret, secretCheck } from './resident-secret.ts';
import { type ResidentServer, startResidentServer } from './resident-server.ts';

/** How to start the server. */
export interface StartResidentOptions extends ResidentHandling {
  port: number;
  /** the user (name or uid) whose host posts the events: the agent runs as it */
  gatedUser: string;
  /** the service user (name or uid) to become after binding; required when started as root */
  user?: string;
  /** where the fresh secret is written */
  secretFile: string;
  /** the first unprivileged port (tests give their own; default: the kernel's) */
  portStart?: number | string;
}

/** A started server, running as its service user. */
export interface StartedResident extends ResidentServer {
  /** the uid the process runs as now */
  readonly uid: number;
  readonly gatedUid: number;
}

/** Starts the server after checking every condition; throws `USAGE` naming the first that does not hold. */
export async function startResident(options: StartResidentOptions): Promise<StartedResident> {
  const gated = userIds(options.gatedUser);
  const problem = portProblem(options.port, options.portStart ?? unprivilegedPortStart());
  if (problem !== undefined) throw refused(problem);
  const root = process.getuid?.() === 0;
  if (root && options.user === undefined)
    throw refused('started as root: give the service user to run as (`--user NAME`)');
  const service =
    options.user === undefined
      ? { uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1 }
      : userIds(options.user);
  const users = usersProblem(service.uid, gated.uid);
  if (users !== undefined) throw refused(users);
  if (!root && options.user !== undefined && service.uid !== process.getuid?.())
    throw refused(`only root can become \`${options.user}\`: start as root, or as that user with CAP_NET_BIND_SERVICE`);

  const secret = newSecret();
  let server: ResidentServer;
  try {
    server = await startResidentServer(options.port, { ...options, checkSecret: secretCheck(secret) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES')
      throw refused(
        `cannot bind port ${options.port}: start as root with \`--user\`, or give the service user CAP_NET_BIND_SERVICE`,
      );
    throw refused(`cannot listen on port ${options.port} (${code ?? String(error)})`);
  }
  try {
    await writeSecret(options.secretFile, secret, root ? service.uid : undefined, gated.gid);
    if (root) {
      // for good: no supplementary groups, then the group, then the user (after which nothing can come back)
      process.setgroups?.([]);
      process.setgid?.(service.gid);
      process.setuid?.(service.uid);
    }
    const now = process.getuid?.() ?? -1;
    const after = usersProblem(now, gated.uid);
    if (after !== undefined) throw refused(after);
    return Object.assign(server, { uid: now, gatedUid: gated.uid });
  } catch (error) {
    await server.close();
    throw error instanceof GateError ? error : refused(error instanceof Error ? error.message : String(error));
  }
}

// the secret written whole through one handle (a name swapped in the folder meanwhile is never followed: `wx`
// creates, rename replaces): owner the service user, group the gated user's, mode 0640
async function writeSecret(file: string, secret: string, owner: number | undefined, group: number): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${secret}\n`);
    try {
      await handle.chown(owner ?? -1, group);
      await handle.chmod(0o640);
    } catch {
      // a service user outside the gated user's group keeps the file its own (0600): the deployment shares it
    }
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

function refused(why: string): GateError {
  return new GateError('USAGE', `the resident hook is not safe here: ${why}`);
}
