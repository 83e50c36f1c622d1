/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** True for a record that is plain JSON data: a non-array object whose prototype is `Object.prototype` or null. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A JSON value as message text: strings as they are, anything else as `String` renders it (`[object Object]`). */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? value.map(jsonText).join(',') : '[object Object]';
}
