import type { Readable } from 'node:stream';
import { GateError } from '../errors.ts';
import { JsonScan } from '../flow/json-scan.ts';
import { eventJsonCaps, pastEventJsonCaps } from '../hook/event-budget.ts';
import { EventSkeleton } from '../hook/event-skeleton.ts';

// Reading one hook event from stdin: capped as it arrives, and what arrived kept for the fail-closed answer.

/** Largest hook event read from stdin, bytes (a tool result with embedded resources can be large). */
export const maxEventBytes = 64 * 1024 * 1024;

/** Most bytes of an oversize event scanned for its members (what is past it is not read). */
const maxScannedEventBytes = 4 * maxEventBytes;

/**
 * The event's text; over `maxEventBytes`, or holding more JSON values or deeper nesting than `eventJsonCaps` (scanned
 * as it arrives, so it is never parsed), it throws, and `oversize` holds the event's small top-level members (its name,
 * tool, input and ids, read by `EventSkeleton` from the rest of the stream) so the failure is answered in the host's
 * terms (a post event's result withheld), not by an exit code the host may not honour.
 */
export async function readEvent(
  stdin: Readable,
  oversize: { members?: Record<string, unknown> } = {},
  reading: EventReading = { parts: [], started: false, done: false },
): Promise<string> {
  reading.started = true;
  const parts = reading.parts;
  let bytes = 0;
  let skeleton: EventSkeleton | undefined;
  let scan: JsonScan | undefined;
  let past: string | undefined;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (skeleton === undefined) {
      parts.push(buffer);
      if (scan !== undefined) scan.feed(buffer);
      else if (bytes > eventJsonCaps.scanFromBytes) {
        scan = new JsonScan();
        for (const part of parts) scan.feed(part);
      }
      past =
        bytes > maxEventBytes
          ? `is over ${maxEventBytes} bytes`
          : scan === undefined
            ? undefined
            : pastEventJsonCaps(scan);
      if (past !== undefined) {
        skeleton = new EventSkeleton();
        for (const part of parts) skeleton.feed(part);
        parts.length = 0;
        reading.skeleton = skeleton;
      }
    } else if (bytes - buffer.length < maxScannedEventBytes) skeleton.feed(buffer);
  }
  reading.done = true;
  if (skeleton !== undefined) {
    oversize.members = skeleton.members();
    throw new GateError('INPUT_INVALID', `the hook event ${past ?? ''}`);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Milliseconds the failure path waits for an event it had not started to read (the policy failed first). */
export const failureReadMs = 2000;

/** `read`'s text, or undefined when it has not ended within `ms` (it goes on; what arrived stays in its reading). */
export async function readWithin(read: Promise<string>, ms: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What has arrived of one event: its bytes until a cap is passed, then the skeleton scanning the rest. */
export interface EventReading {
  readonly parts: Buffer[];
  skeleton?: EventSkeleton;
  started: boolean;
  done: boolean;
}

/** The small top-level members of the part of an event that has arrived (its name, tool, input and ids, when they came first). */
export function arrivedMembers(reading: EventReading): Record<string, unknown> {
  if (reading.skeleton !== undefined) return reading.skeleton.members();
  const skeleton = new EventSkeleton();
  for (const part of reading.parts) skeleton.feed(part);
  return skeleton.members();
}
