// An ordinary table whose cells hold markup (a csv of code snippets, an export of a form's answers) is read by the
// consumers of a table. Named `.csv`/`.tsv` and declared a table type, text/plain, octet-stream or nothing, no browser
// renders it: a declared text/csv is shown as text or downloaded, and an undeclared one is sniffed by its opening
// bytes only (the MIME Sniffing standard §7.1), which here are a header row, not a tag; no host renders a file named
// `.csv` as markdown (a code host shows its cells escaped). The oracle is the csv reader: the cell is a string,
// `<script>` and all. A table whose bytes open with a tag is the page a sniffing host takes it for, and a table
// without a table's name is read as the text it is declared (round11-browser.test.ts, browser-pages.test.ts).
import { describe, expect, test } from 'vitest';
import { profileGate } from './consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type Sending } from './redteam/judge-variants.ts';

const csv =
  'id,snippet,note\n1,"<script>alert(1)</script>",inline script\n2,<b>bold</b> and <iframe src=x>,markup\n3,<img src=x onerror=alert(1)>,handler\n';
const tsv = 'id\tsnippet\n1\t<script>alert(1)</script>\n';
// policies/default.yaml refuses octet-stream, tsv and html by name: with them admitted, the bytes decide
const gate = profileGate(undefined, ['application/octet-stream', 'text/tab-separated-values', 'text/html']);

describe('a csv whose cells hold markup', () => {
  test('is cells to a csv reader', () => {
    const cells = csv.split('\n')[1]?.split(',');
    expect(cells?.[1]).toBe('"<script>alert(1)</script>"');
    expect(tsv.split('\n')[1]?.split('\t')).toEqual(['1', '<script>alert(1)</script>']);
  });

  test('named a table and declared a table, text, octet-stream or nothing, is allowed', async () => {
    const sendings: Sending[] = [
      ['https://data.example/export.csv', 'text/csv'],
      ['https://data.example/export.CSV', 'text/csv'],
      ['https://data.example/export.csv', 'text/plain'],
      ['https://data.example/export.csv', 'application/octet-stream'],
      ['https://data.example/export.csv', undefined],
    ];
    expect(refused(await judgeSendings({ text: csv }, sendings, gate))).toEqual([]);
    const tsvSendings: Sending[] = [
      ['https://data.example/export.tsv', 'text/tab-separated-values'],
      ['https://data.example/export.tsv', undefined],
    ];
    expect(refused(await judgeSendings({ text: tsv }, tsvSendings, gate))).toEqual([]);
  });

  test('declared a page or markdown, or without a table name, is denied', async () => {
    const sendings: Sending[] = [
      ['https://data.example/export.csv', 'text/html'],
      ['https://data.example/export.csv', 'text/markdown'],
      ['https://data.example/export', 'text/csv'],
      ['https://data.example/export.txt', 'text/csv'],
      ['https://data.example/export', 'text/plain'],
      ['https://data.example/export.md', 'text/plain'],
    ];
    expect(letThrough(await judgeSendings({ text: csv }, sendings, gate))).toEqual([]);
  });

  test('a table that opens with a tag is a page to a sniffing host under every sending', async () => {
    const page = `<b>id</b>,snippet\n1,ok\n`.replace('ok', '<img src=x onerror=alert(1)>');
    const sendings: Sending[] = [
      ['https://data.example/export.csv', 'text/csv'],
      ['https://data.example/export.csv', 'text/plain'],
      ['https://data.example/export.csv', 'application/octet-stream'],
      ['https://data.example/export.csv', undefined],
    ];
    expect(letThrough(await judgeSendings({ text: page }, sendings, gate))).toEqual([]);
  });
});
