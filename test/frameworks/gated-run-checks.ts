// What every framework run over a gated connection must show, checked one way for all of them: the hostile server
// never asked for the refused links, what the model received (each read tool call's output, and everything it was
// sent), and the records.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { serverReads } from '../real-host/fixture-process.ts';
import { hostileLink } from './hostile-resources.ts';

/** The hostile server's source file (started under tsx with `tsServerCommand`). */
export const hostileServerFile = path.join(import.meta.dirname, 'hostile-server.ts');

/** server-everything's entry (stdio with the argument `stdio`). */
export const everythingServer = path.resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** server-everything's document the runs read through the host read tool (an allowed read). */
export const everythingDoc = 'demo://resource/static/document/architecture.md';

/** What one run left: the hostile server's request log and what the model received. */
export interface GatedRun {
  requestLog: string;
  /** the output the model received for a tool call id (`call_<key>` for each hostile link, `call_everything_read`) */
  output: (callId: string) => string;
  /** everything the model was sent, as one text */
  sent: string;
}

/** Checks a run whose host read tool read every hostile link and server-everything's document. */
export async function expectGatedRun(run: GatedRun): Promise<void> {
  // the metadata and file: links were refused before any read: the server was never asked for them
  expect(await serverReads(run.requestLog)).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
  expect(run.output('call_metadata')).toContain('uri.non-public-address');
  expect(run.output('call_file')).toMatch(/refused to read/);
  // the README reached the model; the ELF labelled image/png and the HTML page with script did not
  expect(run.output('call_readme')).toContain(hostileLink('readme').marker);
  for (const key of ['metadata', 'file', 'elf', 'html']) expect(run.sent).not.toContain(hostileLink(key).marker);
  expect(run.output('call_elf')).toContain('content.executable');
  expect(run.output('call_everything_read')).toContain('architecture');
}

/** Checks the records of a run (after its sink is closed): the README (and server-everything's document, unless `everything: false`) read, the refused and withheld links `link-only`. */
export async function expectRecords(recordsFile: string, options: { everything?: boolean } = {}): Promise<void> {
  const records = linkRecordLines(await readFile(recordsFile, 'utf8')) as LinkRecord[];
  const byUri = (uri: string) => records.filter((r) => r.uri === uri).map((r) => r.verdict);
  expect(byUri(hostileLink('readme').uri)).toContain('body-obtained');
  for (const key of ['metadata', 'file', 'elf']) expect(byUri(hostileLink(key).uri)).toContain('link-only');
  if (options.everything !== false) expect(byUri(everythingDoc)).toContain('body-obtained');
}
