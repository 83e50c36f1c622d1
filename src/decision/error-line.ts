import { escapeInvisible } from './quote-value.ts';

/** Longest error line `errorLine` gives, in UTF-16 code units. */
export const maxErrorLineChars = 500;

/**
 * What was thrown, as text: an Error's `message`, else `String(value)`, else its `Object.prototype.toString` tag, else a
 * fixed text. Never throws, whatever was thrown (`Object.create(null)`, a throwing `toString` or `Symbol.toPrimitive`,
 * a throwing `message` getter, a revoked Proxy), so the catch that withholds or denies always answers.
 */
export function errorText(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    try {
      return Object.prototype.toString.call(error);
    } catch {
      return 'a thrown value with no string form';
    }
  }
}

/** The first line of what was thrown, for a one-line message: never throws, control and format characters escaped, cut. */
export function errorLine(error: unknown): string {
  const line = errorText(error).split(/\r\n|[\n\r\u2028\u2029]/)[0] ?? '';
  const cut = line.length > maxErrorLineChars ? `${line.slice(0, maxErrorLineChars - 1)}…` : line;
  return escapeInvisible(cut) || 'unknown failure';
}

/** Whether a value is an Error, never throwing (`instanceof` throws on a revoked Proxy). */
export function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}
