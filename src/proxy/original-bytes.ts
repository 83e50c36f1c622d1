import { GateError } from '../errors.ts';
import { editMessage, editsOf } from '../sdk/message-edits.ts';
import type { Line } from './json-lines.ts';
import { spliceEdits, spliceEditsInto } from './json-spans.ts';
import { markWire, wireBytes } from '../flow/json-rpc-shape.ts';
import { EditedLine } from './edited-line.ts';
import { holedLine, holedLineBytes } from './blob-holes.ts';

/** What `frameOf` gives to write: a string, or the buffers a line arrived as, newline included. */
export type Frame = string | readonly Buffer[];

// A parsed message carries the line it arrived as (and its JSON-RPC shape, classified once: `markWire`): a message
// that passes the gate unchanged is forwarded as those bytes, and a message the gate changed is those bytes with only
// the changed values replaced, never re-serialized (a rebuilt message can drop or reorder what a peer relies on, or
// change a number). The member is not enumerable: it is never serialized, and a spread copy does not pretend to be
// the line.

/** Parses one JSON line into a message that carries its bytes (`lineOf`); throws SyntaxError for invalid JSON. */
export function parseLine(line: Line): unknown {
  const value: unknown = parsedFromBytes(line) ?? (JSON.parse(line.text) as unknown);
  if (value === null || typeof value !== 'object') return value;
  markWire(value, line);
  // a batch's elements are classified once too (they have no line of their own)
  if (Array.isArray(value))
    for (const element of value as unknown[])
      if (element !== null && typeof element === 'object') markWire(element, undefined);
  return value;
}

// a long line's value read with its long base64 strings cut out (`line.cut` set), or undefined: parse it whole
function parsedFromBytes(line: Line): unknown {
  const bytes = line.parts[0];
  if (line.size < holedLineBytes || line.parts.length !== 1 || bytes === undefined) return undefined;
  const holed = holedLine(bytes);
  if (holed === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(holed.text);
  } catch {
    return undefined;
  }
  if (!holed.fill(value)) return undefined;
  line.cut = holed.text;
  return value;
}

/** The line `message` arrived as, when `parseLine` made it. */
export function lineOf(message: object): Line | undefined {
  return wireBytes(message) as Line | undefined;
}

/**
 * The line to send for `message`, newline included: the original bytes when it is the object `parseLine` returned;
 * for an `EditedLine` or a message `editMessage` made from such an object, those bytes with the edits spliced in;
 * else its JSON.
 * Throws GateError `READ_FAILED` when the edits cannot be spliced into the original (the caller fails the request).
 */
export function frameOf(message: unknown): Frame {
  if (message === null || typeof message !== 'object') return `${JSON.stringify(message)}\n`;
  const line = lineOf(message);
  if (line !== undefined) return line.parts;
  const bytes = editedBytes(message);
  if (bytes !== null) return [bytes];
  const text = editedText(message);
  if (text !== null) return text;
  // an edited message that did not arrive as a line is written as the value the edits make of it
  const value =
    message instanceof EditedLine ? editMessage(message.from as Record<string, unknown>, message.edits) : message;
  return `${JSON.stringify(value)}\n`;
}

// the original bytes with the edits made, for a message edited once from a line of ASCII text (null: another one)
function editedBytes(message: object): Buffer | null {
  const edited = message instanceof EditedLine ? message : editsOf(message);
  const line = edited === undefined ? undefined : lineOf(edited.from);
  if (edited === undefined || line === undefined) return null;
  return spliceEditsInto(line.text, line.parts, line.size, edited.edits, edited.from, line.brackets);
}

// the original text with the edits made, for a message edited from one that arrived as a line (null: none did)
function editedText(message: object): string | null {
  const edited = message instanceof EditedLine ? message : editsOf(message);
  if (edited === undefined) return null;
  const line = lineOf(edited.from);
  const from = line?.text ?? editedText(edited.from);
  if (from === null) return null;
  // the message parsed from the line is that text's value; one edited from another is not (its edits are in the text)
  const text = spliceEdits(from, edited.edits, line === undefined ? undefined : edited.from, line?.brackets);
  if (text === null)
    throw new GateError('READ_FAILED', 'the judged answer cannot be written into the bytes it came as');
  return text;
}
