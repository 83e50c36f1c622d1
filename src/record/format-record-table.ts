import { styleText } from 'node:util';
import type { LinkRecord, Verdict } from './link-record.ts';

/** Widest uri column of the table, characters; longer masked uris are cut with `…`. */
export const maxUriColumnChars = 48;

type Style = Parameters<typeof styleText>[0];

const verdictStyle: Record<Verdict, Style> = {
  'body-obtained': 'green',
  'partially-interpreted': 'yellow',
  'link-only': 'red',
  unverifiable: 'magenta',
};

/** A people-readable table of records (uri, the four stages, verdict, reasons) and a `next` list; colour only when `colour`. */
export function formatRecordTable(records: readonly LinkRecord[], colour: boolean): string {
  const paint = (style: Style, text: string) => (colour ? styleText(style, text, { validateStream: false }) : text);
  const header = ['#', 'uri', 'declared', 'link', 'requested', 'received', 'delivered', 'verdict', 'reasons'];
  const rows = records.map((r, i) => [
    String(i + 1),
    cut(r.uri, maxUriColumnChars),
    r.stages.discovered.mimeType ?? '-',
    r.decisions.link.effect,
    requestedCell(r),
    receivedCell(r),
    deliveredCell(r),
    r.verdict,
    reasonCodes(r),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[], styled: (cell: string, c: number) => string) =>
    cells
      .map((cell, c) => styled(c === cells.length - 1 ? cell : cell.padEnd(widths[c] ?? 0), c))
      .join('  ')
      .trimEnd();
  const out = [line(header, (cell) => paint('bold', cell))];
  for (const [i, row] of rows.entries()) {
    const verdict = records[i]?.verdict ?? 'unverifiable';
    out.push(
      line(row, (cell, c) =>
        c === 7 ? paint(verdictStyle[verdict], cell) : c === 3 || c === 8 ? paint('dim', cell) : cell,
      ),
    );
  }
  const indexWidth = String(records.length).length;
  const next = records.flatMap((r, i) =>
    r.next === null ? [] : [`  ${String(i + 1).padStart(indexWidth)}  ${r.next.boundary}: ${r.next.hint}`],
  );
  if (next.length > 0) out.push('', paint('bold', 'next:'), ...next);
  const counts = new Map<Verdict, number>();
  for (const r of records) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const summary = [...counts].map(([v, n]) => `${n} ${paint(verdictStyle[v], v)}`).join(', ');
  out.push('', `${records.length} link${records.length === 1 ? '' : 's'}${summary === '' ? '' : `: ${summary}`}`);
  return `${out.join('\n')}\n`;
}

function requestedCell(r: LinkRecord): string {
  const requested = r.stages.requested;
  if (requested === null) return '-';
  if (requested.transport === 'https-direct') {
    const hops = requested.hops?.length ?? 0;
    return `fetch ${hops} hop${hops === 1 ? '' : 's'}`;
  }
  return `${requested.deadlineMs} ms`;
}

function receivedCell(r: LinkRecord): string {
  const received = r.stages.received;
  if (received === null) {
    if (r.stages.requested !== null) return 'no answer';
    return '-';
  }
  if (received.error !== null) return `error ${received.error.code}`;
  if (received.httpStatus !== undefined) {
    // a direct fetch: the http status, then what the body was as for a read, or only its bytes when it was not checked
    const http = `http ${received.httpStatus}`;
    if (received.resultType !== 'complete') return received.bytes > 0 ? `${http} ${bytes(received.bytes)}` : http;
    return `${http} ${bodyCell(received)}${received.truncated === true ? ' (cut)' : ''}`;
  }
  if (received.resultType !== 'complete') return String(received.resultType);
  return bodyCell(received);
}

function bodyCell(received: NonNullable<LinkRecord['stages']['received']>): string {
  const carriers = [
    received.textItems > 0 ? `${received.textItems} text` : '',
    received.blobItems > 0 ? `${received.blobItems} blob` : '',
  ]
    .filter((s) => s !== '')
    .join(' + ');
  const kinds = [...new Set(received.items.map((i) => i.kind ?? '?'))].join(',');
  const cached = received.cache === null ? '' : ' (cache)';
  return `${carriers || '0 items'} ${bytes(received.bytes)} ${kinds}${cached}`.replace(/\s+/g, ' ').trim();
}

function deliveredCell(r: LinkRecord): string {
  const d = r.stages.delivered;
  if (d === null) return '-';
  return `${d.items.length}/${r.stages.received?.itemCount ?? d.items.length} ${bytes(d.bytes)}`;
}

function reasonCodes(r: LinkRecord): string {
  const codes = [...r.decisions.link.reasons, ...(r.decisions.read?.reasons ?? [])].map((x) => x.code);
  return [...new Set(codes)].join(', ');
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
