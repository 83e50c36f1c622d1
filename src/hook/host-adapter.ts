import type { HookAnswer, HookEvent } from './hook-event.ts';

/** One host's hook protocol: its event on stdin to a host-neutral event, and an answer back to its stdout. */
export interface HostAdapter {
  /** the event, null when the event is one the gate has nothing to do with; throws GateError for a bad event */
  parse(event: Record<string, unknown>): HookEvent | null;
  /** the text to print (empty for no answer), for `event` */
  format(answer: HookAnswer, event: HookEvent): string;
  /** the answer to any event the hook failed on, for a host that reads no exit code (else exit 2 and `failedPostAnswer`) */
  failed?(failure: string): string;
  /** true for a host that reads no answer on stdout: a non-empty `format` goes to stderr with exit 2 (Windsurf) */
  answersByExit?: boolean;
}
