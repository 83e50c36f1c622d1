// Where a session's state entries live: files in a folder, shared by the hook processes a host runs at the same time
// (`linkgate hook`), or a map in the host's own process (in-process hooks, which need no file). `SessionState` holds
// the rules (the per-event cap, the overflow servers, what a read takes); an entry store only keeps named JSON texts.
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile } from '../policy/read-regular-file.ts';

/** Largest state entry read, bytes (a FIFO, a device or a larger file planted in the state folder is an error). */
export const maxStateEntryBytes = 16 * 1024 * 1024;

/** Named JSON texts of one session: each written whole (a reader never sees half of one), read and removed by name. */
export interface StateEntries {
  /** the names that start with `prefix` and end `.json`, in no set order */
  names(prefix: string): Promise<string[]>;
  /** writes (or replaces) the entry `name` */
  write(name: string, text: string): Promise<void>;
  /** the text of entry `name`; undefined when there is none; throws for an entry over `maxStateEntryBytes` */
  read(name: string): Promise<string | undefined>;
  /** removes entry `name` (nothing when there is none) */
  remove(name: string): Promise<void>;
}

/** Entries as files in `dir`: write-then-rename (no process reads half a file), read as regular files under the cap. */
export function fileStateEntries(dir: string): StateEntries {
  return {
    names: async (prefix) => (await readdir(dir)).filter((n) => n.startsWith(prefix) && n.endsWith('.json')),
    write: async (name, text) => {
      const temp = join(dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, join(dir, name));
    },
    read: async (name) => {
      try {
        return (await readRegularFile(join(dir, name), maxStateEntryBytes)).toString('utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    remove: (name) => rm(join(dir, name), { force: true }),
  };
}

/**
 * Entries in a map of this process, for hooks that run in the host's own process: the same texts as the files would
 * hold (a value is copied in and out as JSON, so a caller never shares an object with the state) and the same size
 * cap on read, with no i/o.
 */
export function memoryStateEntries(): StateEntries {
  const entries = new Map<string, string>();
  return {
    names: async (prefix) => [...entries.keys()].filter((n) => n.startsWith(prefix) && n.endsWith('.json')),
    write: async (name, text) => {
      entries.set(name, text);
    },
    read: async (name) => {
      const text = entries.get(name);
      if (text !== undefined && Buffer.byteLength(text) > maxStateEntryBytes)
        throw new Error(`over ${maxStateEntryBytes} bytes (${Buffer.byteLength(text)} bytes)`);
      return text;
    },
    remove: async (name) => {
      entries.delete(name);
    },
  };
}
