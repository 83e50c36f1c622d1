import { lstat, open, realpath, unlink } from 'node:fs/promises';
import { dirname, sep } from 'node:path';

/**
 * Files the host saved for this session: only these are read back or removed, so a tool result that names another
 * path (`[Image source: ~/.ssh/id_ed25519]`) can never make the hook read or delete it. `dir` null: no folder is
 * known, and nothing is trusted.
 */
export class SavedFiles {
  readonly dir: string | null;

  constructor(dir: string | null) {
    this.dir = dir;
  }

  /** The host's folder for a Claude Code transcript: `<transcript without .jsonl>/tool-results`. */
  static forTranscript(transcriptPath: string | undefined): SavedFiles {
    if (transcriptPath === undefined || !transcriptPath.endsWith('.jsonl')) return new SavedFiles(null);
    return new SavedFiles(`${transcriptPath.slice(0, -'.jsonl'.length)}${sep}tool-results`);
  }

  /** True when `path` is a regular file (not a link) inside the folder, after resolving every link in the folder path. */
  async owns(path: string): Promise<boolean> {
    if (this.dir === null) return false;
    try {
      const info = await lstat(path);
      if (!info.isFile()) return false;
      const [folder, parent] = await Promise.all([realpath(this.dir), realpath(dirname(path))]);
      return parent === folder || parent.startsWith(`${folder}${sep}`);
    } catch {
      return false;
    }
  }

  /** The file's bytes as base64, at most `maxBytes + 1` bytes (enough for the gate to deny it as too large); null when not owned or unreadable. */
  async readBase64(path: string, maxBytes: number): Promise<string | null> {
    if (!(await this.owns(path))) return null;
    try {
      const file = await open(path, 'r');
      try {
        const size = (await file.stat()).size;
        const buffer = Buffer.alloc(Math.min(size, maxBytes + 1));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead).toString('base64');
      } finally {
        await file.close();
      }
    } catch {
      return null;
    }
  }

  /** Removes an owned file; files outside the folder are left alone. */
  async remove(path: string): Promise<void> {
    if (!(await this.owns(path))) return;
    try {
      await unlink(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
