/** `text` with each span `[start, end, replacement)` (in order, not overlapping) replaced by its replacement. */
export function splicedSpans(text: string, spans: readonly (readonly [number, number, string])[]): string {
  if (spans.length === 0) return text;
  const pieces: string[] = [];
  let from = 0;
  for (const [start, end, replacement] of spans) {
    pieces.push(text.slice(from, start), replacement);
    from = end;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}
