// the last time written: the links of one tool result share one clock reading, so their records share its text
let lastMs = Number.NaN;
let lastText = '';

/** `at.toISOString()`, made once for the many stages that carry the same instant (throws RangeError as it does). */
export function isoTime(at: Date): string {
  const ms = at.getTime();
  if (ms !== lastMs) {
    lastText = at.toISOString();
    lastMs = ms;
  }
  return lastText;
}
