import { styleText } from 'node:util';
import type { EmbeddedRecord, EmbeddedVerdict } from './embedded-record.ts';
import type { LinkRecord, Verdict } from './link-record.ts';

/** Widest uri column of the table, characters; longer masked uris are cut with `…`. */
export const maxUriColumnChars = 48;

type Style = Parameters<typeof styleText>[0];

const verdictStyle: Record<Verdict | EmbeddedVerdict, Style> = {
  'body-obtained': 'green',
  'partially-interpreted': 'yellow',
  'link-only': 'red',
  unverifiable: 'magenta',
  'embedded-delivered': 'green',
  'embedded-partial': 'yellow',
  'embedded-withheld': 'red',
};

/** What each verdict means, printed under the table. */
export const verdictLegend: Readonly<Record<Verdict | EmbeddedVerdict, string>> = {
  'body-obtained': 'read, judged and delivered whole',
  'partially-interpreted': 'read; only the items the policy allows were delivered',
  'link-only': 'not read, or read and not delivered: the policy or a cap stopped it',
  unverifiable: 'the read failed, timed out or gave no final answer: nothing is known of the body',
  'embedded-delivered': 'a body the tool result carried itself (no read), delivered whole',
  'embedded-partial': 'an embedded body (no read), only its allowed part delivered',
  'embedded-withheld': 'an embedded body (no read), withheld by the content checks',
};

/**
 * A people-readable table of records (uri, the four stages, verdict, reasons), embedded resources after the links,
 * a `next` list and a legend of the verdicts shown; colour only when `colour`.
 */
export function formatRecordTable(
  records: readonly LinkRecord[],
  colour: boolean,
  embedded: readonly EmbeddedRecord[] = [],
): string {
  const paint = (style: Style, text: string) => (colour ? styleText(style, text, { validateStream: false }) : text);
  const header = [
    '#',
    'uri',
    'declared type',
    'link',
    'requested',
    'received',
    'detected type',
    'delivered',
    'verdict',
    'reasons',
  ];
  const rows = records.map((r, i) => [
    String(i + 1),
    cut(shownUri(r), maxUriColumnChars),
    r.stages.discovered.mimeType ?? '-',
    r.decisions.link.effect,
    requestedCell(r),
    receivedCell(r),
    detectedCell(r),
    deliveredCell(r),
    r.verdict,
    reasonCodes(r),
  ]);
  const verdicts: (Verdict | EmbeddedVerdict)[] = records.map((r) => r.verdict);
  for (const [j, e] of embedded.entries()) {
    rows.push([
      `e${j + 1}`,
      cut(e.uri ?? '(no uri)', maxUriColumnChars),
      e.mimeType ?? '-',
      'embedded',
      'no read',
      `1 ${e.carrier}`,
      '-',
      e.decision.effect === 'deny' ? 'withheld' : e.decision.effect === 'partial' ? 'part' : 'whole',
      e.verdict,
      [...new Set(e.decision.reasons.map((x) => x.code))].join(', '),
    ]);
    verdicts.push(e.verdict);
  }
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[], styled: (cell: string, c: number) => string) =>
    cells
      .map((cell, c) => styled(c === cells.length - 1 ? cell : cell.padEnd(widths[c] ?? 0), c))
      .join('  ')
      .trimEnd();
  const out = [line(header, (cell) => paint('bold', cell))];
  for (const [i, row] of rows.entries()) {
    const verdict = verdicts[i] ?? 'unverifiable';
    out.push(
      line(row, (cell, c) =>
        c === 8 ? paint(verdictStyle[verdict], cell) : c === 3 || c === 9 ? paint('dim', cell) : cell,
      ),
    );
  }
  const indexWidth = Math.max(String(records.length).length, embedded.length === 0 ? 0 : `e${embedded.length}`.length);
  const next = [
    ...records.flatMap((r, i) =>
      r.next === null ? [] : [`  ${String(i + 1).padStart(indexWidth)}  ${r.next.boundary}: ${r.next.hint}`],
    ),
    ...embedded.flatMap((e, j) =>
      e.next === null ? [] : [`  ${`e${j + 1}`.padStart(indexWidth)}  ${e.next.boundary}: ${e.next.hint}`],
    ),
  ];
  if (next.length > 0) out.push('', paint('bold', 'next:'), ...next);
  const counts = new Map<Verdict | EmbeddedVerdict, number>();
  for (const v of verdicts) counts.set(v, (counts.get(v) ?? 0) + 1);
  const summary = [...counts].map(([v, n]) => `${n} ${paint(verdictStyle[v], v)}`).join(', ');
  const what = [
    `${records.length} link${records.length === 1 ? '' : 's'}`,
    embedded.length === 0 ? null : `${embedded.length} embedded resource${embedded.length === 1 ? '' : 's'}`,
  ]
    .filter((s) => s !== null)
    .join(' and ');
  out.push('', `${what}${summary === '' ? '' : `: ${summary}`}`);
  if (counts.size > 0) {
    const width = Math.max(...[...counts.keys()].map((v) => v.length));
    out.push(
      '',
      paint('bold', 'verdicts:'),
      ...[...counts.keys()].map((v) => `  ${paint(verdictStyle[v], v.padEnd(width))}  ${verdictLegend[v]}`),
      "requested: the read's deadline (the policy's `read.readTimeoutMs`), or the hops of a direct fetch; detected type: what the bytes are",
    );
  }
  return `${out.join('\n')}\n`;
}

// the uri as recorded (userinfo dropped), with `***@` where the link carried userinfo, so the table shows it was there
function shownUri(r: LinkRecord): string {
  const hadUserinfo = r.decisions.link.reasons.some((x) => x.code === 'uri.userinfo');
  return hadUserinfo ? r.uri.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, '$1***@') : r.uri;
}

function requestedCell(r: LinkRecord): string {
  const requested = r.stages.requested;
  if (requested === null) return '-';
  if (requested.transport === 'https-direct') {
    const hops = requested.hops?.length ?? 0;
    return `fetch ${hops} hop${hops === 1 ? '' : 's'}`;
  }
  return `deadline ${requested.deadlineMs} ms`;
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
  const cached = received.cache === null ? '' : ' (cache)';
  return `${carriers || '0 items'} ${bytes(received.bytes)}${cached}`.replace(/\s+/g, ' ').trim();
}

function detectedCell(r: LinkRecord): string {
  const items = r.stages.received?.items ?? [];
  if (items.length === 0) return '-';
  return [...new Set(items.map((i) => i.kind ?? '?'))].join(',');
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
