// A table by its name (`.csv`, `.tsv`): spreadsheets and csv viewers read it as cells, and a code host shows its cells
// escaped. Declared a table type, text/plain, octet-stream or nothing, no browser renders it as a page unless its
// bytes open as one (a declared table is shown as text or downloaded; an undeclared one is sniffed by its opening bytes
// alone, MIME Sniffing §7.1), and no host renders a file named `.csv` as markdown. One that opens with a tag is what a
// sniffing host takes it for, a page, and every reading of one holds (round 11: a csv whose first cell is `<b>`).
import { isTableExtension } from '../text/uri-extension.ts';
import type { TextBody } from './content-consumer.ts';
import { opensAsPage, sniffedAsUnknown } from './html-signature.ts';

// the declared types under which a file named as a table is one: a table type, text shown as text, a download
const tableTypes: ReadonlySet<string> = new Set(['text/plain', 'application/octet-stream']);

/** True when `body` is named `.csv`/`.tsv`, declared a table type, text/plain, octet-stream or nothing, and does not open with a tag: cells to every consumer. */
export function shownAsTable(body: TextBody): boolean {
  if (!isTableExtension(body.extension)) return false;
  const declared = body.declaredMime;
  const asTable =
    body.declaredData === 'csv' ||
    body.declaredData === 'tsv' ||
    sniffedAsUnknown(declared) ||
    (declared !== null && tableTypes.has(declared));
  return asTable && !opensAsPage(body.utf8);
}
