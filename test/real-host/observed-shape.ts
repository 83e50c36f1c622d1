// Observed host events, made stable: run-specific values (run folder, uuids, timings, blob file stamps) replaced
// by placeholders for the committed samples, and a key-and-type shape to notice when a host changes its format.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** `value` with the run folder as `<run>`, the checkout as `<repo>`, node as `<node>`, uuids as `<uuid>`, file stamps as `<stamp>`, `duration_ms` as 0 and no `cache_control`. */
export function stableSample(value: unknown, runDir: string): unknown {
  const dashed = runDir.replace(/[/.]/g, '-');
  const text = (s: string) =>
    s
      .split(runDir)
      .join('<run>')
      .split(dashed)
      .join('<run>')
      .split(process.execPath)
      .join('<node>')
      .split(repoRoot)
      .join('<repo>')
      .replace(/[^'"\s]*linkgate-smoke-[A-Za-z0-9]{6}/g, '<logs>')
      .replace(uuid, '<uuid>')
      .replace(/session-\d{4}-\d\d-\d\dT\d\d-\d\d-[0-9a-f]+/g, 'session-<stamp>')
      .replace(/-\d{13}-[0-9a-z-]+\./g, '-<stamp>.');
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number' && key === 'duration_ms') return 0;
    if (Array.isArray(v)) return v.map((x) => walk(x));
    // cache_control marks whichever block is last in a request: where the run stopped, not what a host sends
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'cache_control')
          .map(([k, x]) => [k, walk(x, k)]),
      );
    return v;
  };
  return walk(value);
}

/** The keys and value types of `value`, recursively (arrays as the union of their items' shapes). */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shapes = [...new Set(value.map((v) => JSON.stringify(shapeOf(v))))].sort();
    return shapes.map((s) => JSON.parse(s) as unknown);
  }
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return value === null ? 'null' : typeof value;
}

/** Folder of the committed observations of `host` (e.g. `claude-code`). */
export function observedDir(host: string): string {
  return path.join(import.meta.dirname, 'observed', host);
}

/** Writes `value` as `observed/<host>/<name>.json` (when LINKGATE_RECORD_OBSERVED=1 asks for a new recording). */
export async function writeObserved(host: string, name: string, value: unknown): Promise<void> {
  await mkdir(observedDir(host), { recursive: true });
  await writeFile(path.join(observedDir(host), `${name}.json`), `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads `observed/<host>/<name>.json`. */
export async function readObserved(host: string, name: string): Promise<unknown> {
  return JSON.parse(await readFile(path.join(observedDir(host), `${name}.json`), 'utf8')) as unknown;
}
