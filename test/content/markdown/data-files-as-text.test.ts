// A JSON or XML file declared text/plain (or as nothing, or as bytes) at a uri naming it `.json` or `.xml` is shown
// as code by the editors and hosts that open it, as a `.ts` file is: no markdown renderer reads it. Read as markdown,
// biome's 978 KB configuration schema was withheld as too complex (its descriptions spell `\\<iframe>`, which a
// renderer passes on as a live tag), and an XML description of a web service likewise.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sniffContentSync } from '../../../src/content/sniff-content.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const schema = readFileSync(path.join(repoRoot, 'node_modules/@biomejs/biome/configuration_schema.json'));

// a web service description as WADL files are written: a long XML document with no blank line, `style` attributes
const wadl = Buffer.from(
  [
    '<?xml version="1.0"?>',
    '<wadl:application xmlns:wadl="http://research.sun.com/wadl/2006/10" xmlns="http://research.sun.com/wadl/2006/10">',
    ...Array.from(
      { length: 1500 },
      (_, i) =>
        `  <resource_type id="t${i}"><method name="GET"><request><param style="query" name="ws.op" required="true" fixed="get${i}"/></request></method></resource_type>`,
    ),
    '</wadl:application>',
    '',
  ].join('\n'),
);

describe('a data file named by its uri is shown as code, not rendered as markdown', () => {
  test.each([
    [
      'biome configuration_schema.json',
      schema,
      'guide://corpus/@biomejs/biome/configuration_schema.json',
      'text/plain',
    ],
    ['a WADL file', wadl, 'guide://corpus/wadllib/tests/data/service-wadl.xml', 'text/plain'],
    ['a WADL file undeclared', wadl, 'guide://corpus/wadllib/tests/data/service-wadl.xml', null],
  ])('%s is allowed', (_name, bytes, uri, declaredMime) => {
    const sniff = sniffContentSync(bytes, { declaredMime, uri });
    expect(sniff?.tooComplex ?? null).toBeNull();
    expect(sniff?.active ?? null).toBeNull();
  });

  test('the same schema at a uri naming no data file is still read as markdown (its `\\<iframe>` renders live)', () => {
    const sniff = sniffContentSync(schema, { declaredMime: 'text/plain', uri: 'guide://corpus/schema' });
    expect(sniff?.active !== null || sniff?.tooComplex !== null).toBe(true);
  });
});
