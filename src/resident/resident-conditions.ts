// The conditions under which a resident hook server is as safe as the command hook (docs/resident-hook.md): Claude Code
// lets a PreToolUse read go ahead on any 2xx with an empty body or `{}`, so whoever holds the port decides. The gated
// user must neither take the port (a port below `net.ipv4.ip_unprivileged_port_start`, which only root or
// CAP_NET_BIND_SERVICE may bind) nor stop the server (it runs as another, non-root user), and the gated user is not
// root (root can do both). Each check says in one line why it does not hold; none of them guesses.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GateError } from '../errors.ts';

/** Where Linux keeps the first port an unprivileged user may bind. */
export const unprivilegedPortStartFile = '/proc/sys/net/ipv4/ip_unprivileged_port_start';

/** Where Linux lists the IPv4 TCP sockets of this network namespace, with each socket's owner uid. */
export const tcpTableFile = '/proc/net/tcp';

/** The loopback address the resident server listens on and Claude Code posts to. */
export const residentAddress = '127.0.0.1';

/** The first port an unprivileged user may bind, or a line saying why it is not known (not Linux, unreadable). */
export function unprivilegedPortStart(read: (file: string) => string = readText): number | string {
  // macOS (since 10.14) lets any user bind a port below 1024 on every address: nothing there keeps a port
  if (process.platform !== 'linux') return `\`${process.platform}\` has no port only a service user may bind`;
  let text: string;
  try {
    text = read(unprivilegedPortStartFile);
  } catch (error) {
    return `\`${unprivilegedPortStartFile}\` cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 0 || value > 65536)
    return `\`${unprivilegedPortStartFile}\` does not hold a port number`;
  return value;
}

/** Why `port` is one the gated user could bind (or an invalid port), or undefined when only a privileged user may. */
export function portProblem(port: number, start: number | string): string | undefined {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `\`${port}\` is not a tcp port`;
  if (typeof start === 'string') return start;
  if (port >= start)
    return `port ${port} is not below \`net.ipv4.ip_unprivileged_port_start\` (${start}): the gated user could bind it`;
  return undefined;
}

/** Why the server's user and the gated user do not keep the server out of the gated user's reach, or undefined. */
export function usersProblem(serverUid: number, gatedUid: number): string | undefined {
  if (gatedUid === 0) return 'the gated user is root: it can take any port and stop any server';
  if (serverUid === gatedUid) return `the server runs as the gated user (uid ${gatedUid}): it could stop the server`;
  if (serverUid === 0) return 'the server runs as root: give it a service user (`--user NAME`)';
  return undefined;
}

/**
 * The uid and primary gid of user `name` by the system's own `id`; a number is a uid (with no account, its gid is the
 * same number, as `setpriv --reuid N --regid N` runs it). GateError `USAGE` for a name with no account.
 */
export function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => {
    try {
      // no shell: the name is one argument of `id`
      const out = execFileSync('id', [flag, '--', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return Number(out.trim());
    } catch {
      return undefined;
    }
  };
  const uid = id('-u');
  const gid = id('-g');
  if (uid !== undefined && gid !== undefined && Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
  if (/^\d{1,9}$/.test(name)) return { uid: Number(name), gid: Number(name) };
  throw new GateError('USAGE', `no user \`${name}\` on this machine`);
}

/**
 * The owner uid of the socket listening on `residentAddress:port` (or on every address), from the kernel's socket
 * table, or undefined when nothing listens there. A server started as root that bound the port and then became its
 * service user shows root here: the socket is root's, which the gated user cannot close either.
 */
export function listenerUid(port: number, read: (file: string) => string = readText): number | undefined {
  let text: string;
  try {
    text = read(tcpTableFile);
  } catch {
    return undefined;
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  // 127.0.0.1 and 0.0.0.0 as the table writes them (little-endian hex)
  const addresses = new Set([`0100007F:${hexPort}`, `00000000:${hexPort}`]);
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl local rem st queues timer retransmits uid …; `0A` is LISTEN
    if (fields.length < 8 || fields[3] !== '0A' || !addresses.has(fields[1] ?? '')) continue;
    const uid = Number(fields[7]);
    if (Number.isInteger(uid)) return uid;
  }
  return undefined;
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
