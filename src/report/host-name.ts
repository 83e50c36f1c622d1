import { isRecord } from '../decision/json-value.ts';
import { frontEnds } from '../record/link-record.ts';

/** The key a report counts a record under when it does not say its host or front end. */
export const notRecorded = '(not recorded)';

// the MCP client names hosts report in the handshake (what proxy and decorator records keep), by the host's
// `linkgate hook HOST` name (what hook records keep): one name per host in a report
const hostOfClient: Readonly<Record<string, string>> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  'codex-mcp-client': 'codex',
  'gemini-cli': 'gemini-cli',
  'gemini-cli-mcp-client': 'gemini-cli',
  cursor: 'cursor',
  'cursor-vscode': 'cursor',
};

/**
 * The host of a record, one name per host: the hook's `host.name`, else the client name the host reported in the
 * MCP handshake (proxy, decorator, probe) mapped to the hook's name for the same host (`codex-mcp-client` is
 * `codex`), an unknown client as it named itself, else `(not recorded)`.
 */
export function hostOf(record: Record<string, unknown>, discovered: Record<string, unknown>): string {
  const host = record['host'];
  const named =
    typeof host === 'string' ? host : isRecord(host) && typeof host['name'] === 'string' ? host['name'] : '';
  if (named !== '') return hostOfClient[named] ?? named;
  const client = discovered['client'];
  if (isRecord(client) && typeof client['name'] === 'string' && client['name'] !== '')
    return hostOfClient[client['name']] ?? client['name'];
  return notRecorded;
}

const frontEndSet: ReadonlySet<string> = new Set(frontEnds);

/**
 * The front end that wrote a record (`stages.discovered.frontEnd`); a record from before that field says it only
 * by its shape: `host` is written by the hook alone, `linkgate-probe` is the probe's client name; else `(not recorded)`.
 */
export function frontEndOf(record: Record<string, unknown>, discovered: Record<string, unknown>): string {
  const recorded = discovered['frontEnd'];
  if (typeof recorded === 'string' && frontEndSet.has(recorded)) return recorded;
  if (record['host'] !== undefined) return 'hook';
  const client = discovered['client'];
  if (isRecord(client) && client['name'] === 'linkgate-probe') return 'probe';
  return notRecorded;
}
