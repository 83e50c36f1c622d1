// A table with markup in its cells (an export of a form's answers, a scraped page's titles) is read by the consumers
// of a table: a spreadsheet, a csv viewer, a code host's table of escaped cells. Declared text/csv (or
// tab-separated-values) no browser renders it (the MIME Sniffing standard sniffs only undeclared and unknown types),
// and named `.csv`/`.tsv` under text/plain, octet-stream or no type no host renders it as markdown (as a `.ts` source
// is shown as code). Only a page type (text/html) makes it a page, where its `<script>` runs and is denied. The
// oracle is the csv reader: the cell is a string, `<script>` and all.
import { describe, expect, test } from 'vitest';
import { profileGate } from './consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type Sending } from './redteam/judge-variants.ts';

const csv = 'id,title,note\n1,Intro,"<script>alert(1)</script>"\n2,Setup,<b>bold</b> and <iframe src=x>\n';
// policies/default.yaml refuses octet-stream, tsv and html by name: with them admitted, the bytes decide
const gate = profileGate(undefined, ['application/octet-stream', 'text/tab-separated-values', 'text/html']);

describe('a csv whose cells hold markup', () => {
  test('is cells to a csv reader', () => {
    const cells = csv.split('\n')[1]?.split(',');
    expect(cells?.[2]).toBe('"<script>alert(1)</script>"');
  });

  test('declared a table, or named one as text, is allowed', async () => {
    const sendings: Sending[] = [
      ['https://data.example/export.csv', 'text/csv'],
      ['https://data.example/export', 'text/csv'],
      ['https://data.example/export.tsv', 'text/tab-separated-values'],
      ['https://data.example/export.csv', 'text/plain'],
      ['https://data.example/export.csv', 'application/octet-stream'],
      ['https://data.example/export.csv', undefined],
    ];
    expect(refused(await judgeSendings({ text: csv }, sendings, gate))).toEqual([]);
  });

  test('declared a page, or text with no name a host reads as a table, is denied', async () => {
    const sendings: Sending[] = [
      ['https://data.example/export.csv', 'text/html'],
      ['https://data.example/export', 'text/plain'],
      ['https://data.example/export.md', 'text/plain'],
    ];
    expect(letThrough(await judgeSendings({ text: csv }, sendings, gate))).toEqual([]);
  });
});
