import { resolve as resolvePath } from 'node:path';
import { GateError } from '../errors.ts';
import type { Resolver } from '../gate/create-gate.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { displayPath } from '../review/display-path.ts';

/** Loads a `{"answers": {"name": ["addr", …]}}` map as a resolver; names absent or mapped to `[]` do not resolve. */
export async function loadResolveFrom(file: string, shownAs: string = file): Promise<Resolver> {
  const text = (await readNamedFile('USAGE', 'resolver map', file, shownAs)).toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new GateError('USAGE', `resolver map \`${shownAs}\` is not json`, { cause });
  }
  const answers = (raw as { answers?: unknown } | null)?.answers;
  if (answers === null || typeof answers !== 'object' || Array.isArray(answers)) {
    throw new GateError('USAGE', `resolver map \`${shownAs}\`: field \`answers\` must be an object`);
  }
  const table = new Map<string, readonly string[]>();
  for (const [name, list] of Object.entries(answers)) {
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) {
      throw new GateError(
        'USAGE',
        `resolver map \`${shownAs}\`: field \`answers.${name}\` must be an array of strings`,
      );
    }
    table.set(name.toLowerCase(), Object.freeze([...list]));
  }
  return async (name) => table.get(name.toLowerCase()) ?? [];
}

/**
 * The resolver of `--resolve-from FILE` (relative to `cwd`), or undefined when the option is not given: names are
 * then judged by their text and the network is never touched.
 */
export async function resolverFromOption(cwd: string, file: string | undefined): Promise<Resolver | undefined> {
  return file === undefined ? undefined : loadResolveFrom(resolvePath(cwd, file), displayPath(cwd, file));
}
