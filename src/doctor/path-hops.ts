import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

// symbolic links followed before giving up, as the kernel's own limit (ELOOP after 40)
const maxLinks = 40;

/**
 * Every place the path `file` passes through on its way to what it names, resolved as the kernel resolves it: the path
 * as given (absolute), each symbolic link met on the way (a link in a folder someone can write can be pointed
 * elsewhere), and the path it ends at (the real path; the rest as written once a part is missing). Never throws.
 */
export function pathHops(file: string): string[] {
  const given = resolve(file);
  const hops = [given];
  let pending = parts(given);
  let current: string = sep;
  let links = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending;
    pending = rest;
    if (part === undefined || part === '.') continue;
    if (part === '..') {
      current = join(current, '..');
      continue;
    }
    const next = join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // not there (or not to be examined): what follows is taken as written
      current = join(next, ...pending);
      break;
    }
    if (!isLink || links >= maxLinks) {
      current = next;
      continue;
    }
    links++;
    hops.push(next);
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      current = join(next, ...pending);
      break;
    }
    // a relative target resolves in the link's own folder (`current`), an absolute one from the root
    if (isAbsolute(target)) current = sep;
    pending = [...parts(target), ...pending];
  }
  hops.push(current);
  return [...new Set(hops)];
}

const parts = (path: string) => path.split(sep).filter((p) => p !== '');
