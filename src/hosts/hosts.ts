import { claudeCode } from './claude-code.ts';
import { cline } from './cline.ts';
import { codex } from './codex.ts';
import { copilotCli } from './copilot-cli.ts';
import { cursor } from './cursor.ts';
import { geminiCli } from './gemini-cli.ts';
import type { HostDescription, HostName } from './host-description.ts';
import { windsurf } from './windsurf.ts';

/** Every host linkgate describes, by name. */
export const hostDescriptions: Readonly<Record<HostName, HostDescription>> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  cursor,
  cline,
  'copilot-cli': copilotCli,
  windsurf,
};

/** The hosts, in the order linkgate reports them. */
export const hostNames: readonly HostName[] = [
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor',
  'cline',
  'copilot-cli',
  'windsurf',
];

/** The hosts' labels as one phrase for help text: `claude code, codex, … and copilot cli`. */
export function hostLabels(): string {
  const labels = hostNames.map((name) => hostDescriptions[name].label);
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
