// Assembles src/content/text/byte-classes.wat into the module src/content/text/byte-classes-wasm.ts carries
// (`npx tsx scripts/gen-byte-classes.ts` writes it; test/content/text/byte-classes.test.ts checks they match).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import initWabt from 'wabt';

/** The repository's root folder. */
export const repoRoot = path.resolve(import.meta.dirname, '..');

/** The generated source file's path. */
export const byteClassesWasmFile = path.join(repoRoot, 'src', 'content', 'text', 'byte-classes-wasm.ts');

/** The text of byte-classes-wasm.ts for the current byte-classes.wat: the module's bytes as base64. */
export async function byteClassesWasmSource(): Promise<string> {
  const watFile = path.join(repoRoot, 'src', 'content', 'text', 'byte-classes.wat');
  const wabt = await initWabt();
  const parsed = wabt.parseWat(watFile, await readFile(watFile, 'utf8'), { simd: true });
  try {
    parsed.resolveNames();
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    const base64 = Buffer.from(buffer).toString('base64');
    return [
      '// Generated from byte-classes.wat by scripts/gen-byte-classes.ts: edit the .wat and run it again.',
      '',
      '/** The byte classifier module (byte-classes.wat), as base64. */',
      `export const byteClassesWasm =\n  '${base64}';`,
      '',
    ].join('\n');
  } finally {
    parsed.destroy();
  }
}
