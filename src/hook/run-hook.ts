import type { Gate } from '../gate/create-gate.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { handleHookEvent } from './handle-hook-event.ts';
import { eventObject } from './host-event-fields.ts';
import type { HostAdapter } from './host-adapter.ts';

/** What one hook run needs besides the event text. */
export interface RunHookOptions {
  gate: Gate;
  stateDir: string;
  record: (record: LinkRecord) => Promise<void>;
  /** receives the record of each embedded resource judged (absent: not kept) */
  recordEmbedded?: (record: EmbeddedRecord) => Promise<void>;
  now?: () => Date;
}

/** One event's text in, the host's answer text out (empty for no answer); throws for a bad event or an i/o fault. */
export async function runHook(host: HostAdapter, eventText: string, options: RunHookOptions): Promise<string> {
  const event = host.parse(eventObject(eventText));
  if (event === null) return '';
  const answer = await handleHookEvent(event, options);
  return host.format(answer, event);
}
