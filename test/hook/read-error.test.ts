import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { hostAdapters } from '../../src/hook/hook-hosts.ts';
import { runHook } from '../../src/hook/run-hook.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { readRequested, readReturned } from './hook-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-read-error-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The records of one read through the Claude Code hook whose post event carries `response`. */
async function readThrough(uri: string, response: unknown): Promise<{ records: LinkRecord[]; answer: string }> {
  const gate = createGate(await loadPolicy('policies/default.yaml'));
  const records: LinkRecord[] = [];
  const options = { gate, stateDir: dir, record: async (r: LinkRecord) => void records.push(r) };
  const host = hostAdapters['claude-code'];
  expect(await runHook(host, JSON.stringify(readRequested('docs', uri)), options)).toBe('');
  const post = { ...readReturned('docs', uri, []), tool_response: response };
  const answer = await runHook(host, JSON.stringify(post), options);
  return { records, answer };
}

describe('a server error reported in a read tool output', () => {
  // Claude Code 2.1.332 answers a read the server refused as not found with `{contents: [], error: TEXT}`
  it('is `unverifiable · read.error`, as from every other front end, never `link-only · read.empty`', async () => {
    const uri = 'guide://manuals/gone';
    const error = `Resource not found: ${uri} — it may have been deleted or the URI is stale.`;
    const { records, answer } = await readThrough(uri, { contents: [], error });
    expect(answer).toBe('');
    expect(records).toHaveLength(1);
    const [record] = records as [LinkRecord];
    expect(record.verdict).toBe('unverifiable');
    expect(record.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.error']);
    expect(record.next?.boundary).toBe('origin-server');
    expect(recordViolations(record)).toEqual([]);
  });

  it('keeps judging the contents when the output has both contents and an error text', async () => {
    const uri = 'guide://manuals/packing';
    const contents = [{ uri, mimeType: 'text/plain', text: 'fold the shirts' }];
    const { records } = await readThrough(uri, { contents, error: 'a note' });
    expect(records[0]?.verdict).toBe('body-obtained');
  });

  it('an empty result without an error stays `read.empty`', async () => {
    const { records } = await readThrough('guide://manuals/empty', { contents: [] });
    expect(records[0]?.verdict).toBe('link-only');
    expect(records[0]?.decisions.read?.reasons.map((r) => r.code)).toContain('read.empty');
  });
});
