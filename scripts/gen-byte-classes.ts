// Writes src/content/text/byte-classes-wasm.ts from byte-classes.wat (`npx tsx scripts/gen-byte-classes.ts`).
import { writeFile } from 'node:fs/promises';
import { byteClassesWasmFile, byteClassesWasmSource } from './byte-classes-wasm.ts';

await writeFile(byteClassesWasmFile, await byteClassesWasmSource());
process.stderr.write(`wrote ${byteClassesWasmFile}\n`);
