import { GateError } from '../errors.ts';
import type { FlowMode } from './link-steps.ts';

/**
 * `value` (a front end's `mode` option from a JavaScript caller or a file), `enforce` when undefined; anything but
 * `enforce` or `observe` is a `USAGE` error, never a mode some checks read as enforcing and others as observing.
 */
export function checkMode(value: unknown): FlowMode {
  if (value === undefined) return 'enforce';
  if (value === 'enforce' || value === 'observe') return value;
  throw new GateError('USAGE', 'option `mode` must be `enforce` or `observe`');
}
