/**
 * The first line of what was thrown, at most 500 characters, for a notice: never throws, whatever was thrown (a value
 * with no string form, `Object.create(null)`, or an Error whose `message` getter throws, is named by its type), so the
 * catch that withholds or denies always answers.
 */
export function failureLine(error: unknown): string {
  let message: string;
  try {
    message = error instanceof Error ? String(error.message) : String(error);
  } catch {
    message = `a thrown ${error === null ? 'null' : typeof error} with no string form`;
  }
  return message.split('\n')[0]?.slice(0, 500) || 'unknown failure';
}
