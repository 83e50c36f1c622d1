import type { CommandDefinition, OptionDefinitions } from './command-definition.ts';
import { bundleDefinition } from './bundle-command.ts';
import { diffDefinition } from './diff-command.ts';
import { doctorDefinition } from './doctor-command.ts';
import { evalDefinition } from './eval-command.ts';
import { explainDefinition } from './explain-command.ts';
import { hookDefinition } from './hook-command.ts';
import { lintDefinition } from './lint-command.ts';
import { probeDefinition } from './probe.ts';
import { proxyDefinition } from './proxy-command.ts';
import { reportDefinition } from './report-command.ts';
import { residentDefinition } from './resident-command.ts';
import { reviewDefinition } from './review-command.ts';
import { testDefinition } from './test-command.ts';

/**
 * Every CLI command, in the order `linkgate --help` and docs/cli.md list them. To add one: define it with
 * `defineCommand` in `src/cli/NAME-command.ts` and add it here; its parser, `--help` and docs come from the definition.
 */
export const commands: readonly CommandDefinition<OptionDefinitions>[] = [
  evalDefinition,
  explainDefinition,
  probeDefinition,
  lintDefinition,
  testDefinition,
  diffDefinition,
  reviewDefinition,
  proxyDefinition,
  hookDefinition,
  residentDefinition,
  reportDefinition,
  doctorDefinition,
  bundleDefinition,
] as unknown as readonly CommandDefinition<OptionDefinitions>[];
