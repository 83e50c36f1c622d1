import { GateError } from '../errors.ts';
import { hookTimeoutSeconds } from '../hook/hook-settings.ts';
import type { CliIo } from './cli-io.ts';

/**
 * Milliseconds the hook gives one event before it answers as failed (fail closed): a third of the host's own timeout
 * (`hookTimeoutSeconds`, after which a host lets the call through), so that on a loaded machine the start of the
 * process, the read of the event and the fail-closed answer after the deadline still come well before it.
 */
export const hookDeadlineMs = (hookTimeoutSeconds * 1000) / 3;

/**
 * The hook's own deadline: `race` runs the event's work and throws when it has not finished within `hookDeadlineMs`,
 * so the answer is the fail-closed one; when the hook runs as the process itself, the process exits soon after that
 * answer even if the stuck work still holds the event loop.
 */
export function hookDeadline(io: CliIo) {
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  return {
    race<T>(work: () => Promise<T>): Promise<T> {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          expired = true;
          reject(new GateError('READ_TIMEOUT', `the hook did not answer within ${hookDeadlineMs} ms`));
        }, hookDeadlineMs);
      });
      return Promise.race([work(), late]);
    },
    /** Ends the deadline; the process exits soon after when it expired or `pending` work (a read) would keep it up. */
    done(pending = false): void {
      clearTimeout(timer);
      if ((expired || pending) && io.stdout === process.stdout) setTimeout(() => process.exit(), 200).unref();
    },
  };
}
