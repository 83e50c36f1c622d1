// What every framework's gated read tool must show, checked one way for all of them: the model calls the read tool
// before any tool ran (nothing is discovered yet), then the hostile server's `links` tool, then the read tool for each
// hostile link and for a uri no tool returned. The server is asked only for the links the gate passed on, the model
// gets the README's body exactly, the gate's notice for the rest, and no withheld or refused body.
import { expect } from 'vitest';
import { notDiscoveredNotice } from '../../src/frameworks/gated-links.ts';
import { serverReads } from '../real-host/fixture-process.ts';
import { hostileContents, hostileLink, hostileLinks } from './hostile-resources.ts';

/** A uri of the hostile server's scheme that no tool returned: the read tool must not ask for it. */
export const undiscoveredUri = 'hostile://docs/never-returned.md';

/** One tool call of the scripted model: its id, the tool's name and its arguments. */
export interface ScriptedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** The model's turns: an early read, the links tool (named as the framework names it), every link read, one undiscovered. */
export function readToolScript(readTool: string, linksTool: string): ScriptedCall[][] {
  const read = (uri: string, id: string): ScriptedCall => ({ id, name: readTool, args: { uri } });
  return [
    [read(hostileLink('readme').uri, 'call_early')],
    [{ id: 'call_links', name: linksTool, args: {} }],
    [...hostileLinks.map((r) => read(r.uri, `call_${r.key}`)), read(undiscoveredUri, 'call_undiscovered')],
  ];
}

/** What one read-tool run left: the server's request log, each read call's text as the model got it, and all it was sent. */
export interface ReadToolRun {
  requestLog: string;
  /** the read tool's answer as the model received it (a string), by call id */
  output: (callId: string) => string | undefined;
  /** everything the model was sent, as one text */
  sent: string;
}

/** Checks a read-tool run (see the top of this file). */
export async function expectReadToolRun(run: ReadToolRun): Promise<void> {
  // the server was asked only for the links the tool passed on (the refused ones reached the model as notices)
  expect(await serverReads(run.requestLog)).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
  // nothing discovered before the tool ran; a uri no tool returned; the refused links: all refused without a read
  expect(run.output('call_early')).toBe(notDiscoveredNotice);
  expect(run.output('call_undiscovered')).toBe(notDiscoveredNotice);
  for (const key of ['metadata', 'file']) expect(run.output(`call_${key}`)).toBe(notDiscoveredNotice);
  // the README's body, exactly as the server sent it
  expect(JSON.parse(run.output('call_readme') ?? 'null')).toEqual([hostileContents(hostileLink('readme'))]);
  // the ELF labelled image/png and the HTML page with script: the gate's notice, never the body
  expect(run.output('call_elf')).toMatch(/^linkgate refused to read .*content\.executable/);
  expect(run.output('call_html')).toMatch(/^linkgate refused to read .*content\./);
  for (const key of ['metadata', 'file', 'elf', 'html']) expect(run.sent).not.toContain(hostileLink(key).marker);
  expect(run.sent).toContain(hostileLink('readme').marker);
}
