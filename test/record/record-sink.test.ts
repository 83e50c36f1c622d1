import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { callbackSink, jsonLinesSink } from '../../src/record/record-sink.ts';
import { obtainedRecord } from './record-fixtures.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('record sinks', () => {
  test.each([1, 3, 50])(
    'the JSON Lines sink appends %i records, one object per line, keeping earlier lines',
    async (count) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-sink-'));
      dirs.push(dir);
      const file = path.join(dir, 'records.jsonl');
      const first = jsonLinesSink(file);
      await first.write(obtainedRecord());
      await first.close();
      const sink = jsonLinesSink(file);
      for (let i = 0; i < count; i++) await sink.write({ ...obtainedRecord(), uri: `guide://n/${i}` });
      await sink.close();
      const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(count + 1);
      expect(lines.map((l) => (JSON.parse(l) as { uri: string }).uri).slice(1)).toEqual(
        Array.from({ length: count }, (_, i) => `guide://n/${i}`),
      );
      expect(Object.keys(JSON.parse(lines[0] ?? '{}') as object)).toEqual([
        'uri',
        'verdict',
        'next',
        'stages',
        'decisions',
      ]);
    },
  );

  test('a closed JSON Lines sink refuses writes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-sink-'));
    dirs.push(dir);
    const sink = jsonLinesSink(path.join(dir, 'r.jsonl'));
    await sink.close();
    await expect(sink.write(obtainedRecord())).rejects.toThrow(/closed/);
  });

  test('a file that cannot be written is refused when the sink is made, naming why', () => {
    expect(() => jsonLinesSink(path.join(tmpdir(), 'no-such-dir-linkgate', 'x', 'r.jsonl'))).toThrow(
      /cannot write records to `.*r\.jsonl`: its folder `.*x` does not exist/,
    );
    expect(() => jsonLinesSink(tmpdir())).toThrow(/cannot write records to `.*`: it is a directory/);
  });

  test('the callback sink hands over each record and passes its failure on', async () => {
    const seen: string[] = [];
    await callbackSink((r) => void seen.push(r.uri)).write(obtainedRecord());
    expect(seen).toEqual(['guide://manuals/packing']);
    await expect(
      callbackSink(() => {
        throw new Error('sink down');
      }).write(obtainedRecord()),
    ).rejects.toThrow('sink down');
  });
});
