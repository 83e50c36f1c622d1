import { sep } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import { hostDescriptions } from '../hosts/hosts.ts';
import { handleHookEvent } from './handle-hook-event.ts';
import type { HookContext } from './hook-context.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { eventObject } from './host-event-fields.ts';
import { renderedItem } from './rendered-item.ts';
import { SavedFiles } from './saved-files.ts';

/** What one hook run needs besides the event text: the handling context (`observe` mode also answers nothing). */
export type RunHookOptions = HookContext;

/** One event's text in, the host's answer text out (empty for no answer); throws for a bad event or an i/o fault. */
export async function runHook(host: HostAdapter, eventText: string, options: RunHookOptions): Promise<string> {
  const event = host.parse(eventObject(eventText));
  if (event === null) return '';
  const answer = await handleHookEvent(event, options);
  // observe mode enforces nothing: the decisions are in the records only
  if (options.mode === 'observe') return '';
  return host.format(answer, event);
}

// the events of every host that come after a tool ran (src/hosts/): exit 2 does not withhold its result everywhere
// (Claude Code shows stderr beside it), so a failure there is answered by replacing the result
const isPostEvent = (name: string) => Object.values(hostDescriptions).some((h) => eventPhase(h, name) === 'post');
// the hosts' resource read tools, whose output is `{contents: […]}` (other tools: a list of content items)
const isReadTool = (name: string) => Object.values(hostDescriptions).some((h) => h.tools.read === name);

/**
 * The answer to a post-event whose handling failed (bad event, policy that does not load, i/o fault): the tool's
 * result replaced with one notice naming the failure, every saved file the event names deleted (DESIGN §4f). Null
 * when the text is no post-event of a tool (pre-events and garbage exit 2: the host blocks the call).
 */
export async function failedPostAnswer(
  host: HostAdapter,
  eventText: string,
  failure: string,
  unparsed?: string,
): Promise<string | null> {
  let raw: Record<string, unknown>;
  try {
    raw = eventObject(eventText);
  } catch {
    return null;
  }
  const name = raw['hook_event_name'];
  if (typeof name !== 'string' || !isPostEvent(name)) return null;
  await removeSavedFiles(raw, unparsed);
  const tool = typeof raw['tool_name'] === 'string' ? raw['tool_name'] : '';
  const input = isRecord(raw['tool_input']) ? raw['tool_input'] : {};
  const uri = typeof input['uri'] === 'string' ? input['uri'] : '';
  const notice = `linkgate withheld this tool result: the hook failed: ${failure}`;
  const read = isReadTool(tool);
  const answer: HookAnswer = {
    kind: 'replace',
    output: read ? { contents: [{ uri, mimeType: 'text/plain', text: notice }] } : [{ type: 'text', text: notice }],
    reason: notice,
  };
  const event: HookEvent = {
    session: typeof raw['session_id'] === 'string' ? raw['session_id'] : '',
    phase: 'post',
    toolUseId: typeof raw['tool_use_id'] === 'string' ? raw['tool_use_id'] : null,
    call: read ? { kind: 'read', server: null, uri } : { kind: 'other', name: tool },
    savedDir: null,
  };
  try {
    const text = host.format(answer, event);
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

// every file the failed event's result points the model at, as far as the host saved it for this session; when the
// event was answered from its small members (`raw` holds no result), the paths its whole text names in that folder
async function removeSavedFiles(raw: Record<string, unknown>, unparsed: string | undefined): Promise<void> {
  const transcript = raw['transcript_path'];
  const saved = SavedFiles.forTranscript(typeof transcript === 'string' ? transcript : undefined);
  if (saved.dir === null) return;
  const paths: string[] = unparsed === undefined ? [] : savedPathsIn(unparsed, saved.dir);
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const item = renderedItem({ type: 'text', text: value }, '');
      if (item.kind === 'saved-file') paths.push(item.path);
      return;
    }
    if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
    else if (isRecord(value)) {
      if (typeof value['blobSavedTo'] === 'string') paths.push(value['blobSavedTo']);
      for (const v of Object.values(value)) walk(v, depth + 1);
    }
  };
  walk(raw['tool_response'], 0);
  for (const path of paths) await saved.remove(path).catch(() => undefined);
}

/** Most places of the saved folder `savedPathsIn` reads in one event's text. */
export const maxScannedSavedPaths = 1024;

/**
 * The paths in `dir` (the host's folder of saved bodies) that an event's JSON text names, found without parsing it (a
 * large event, whose parse may be what held the judgement past its deadline): each place the folder is written, up
 * to the end of its JSON string or of its line, at most `maxScannedSavedPaths`; a candidate that is no file of the
 * folder is left alone by `SavedFiles.remove`. Linear in the text.
 */
export function savedPathsIn(text: string, dir: string): string[] {
  const needle = JSON.stringify(`${dir}${sep}`).slice(1, -1);
  const paths = new Set<string>();
  let at = text.indexOf(needle);
  for (let seen = 0; at !== -1 && seen < maxScannedSavedPaths; seen += 1, at = text.indexOf(needle, at + 1)) {
    // a path is shorter than `pathWindow`: its JSON string (or its rendered line, `\n` in the JSON) ends within it
    const written = text.slice(at, writtenEnd(text, at));
    let path: string;
    try {
      path = JSON.parse(`"${written}"`) as string;
    } catch {
      continue;
    }
    paths.add(path);
    // `[Image source: PATH]` closes its bracket after the path
    if (path.endsWith(']')) paths.add(path.slice(0, -1));
  }
  return [...paths];
}

const pathWindow = 8192;

// where the JSON string holding a path that starts at `at` ends: its closing quote, a written line end (`\n`), or
// `pathWindow` characters on
function writtenEnd(text: string, at: number): number {
  const last = Math.min(text.length, at + pathWindow);
  for (let i = at; i < last; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c) {
      if (text.charCodeAt(i + 1) === 0x6e) return i;
      i += 1;
    }
  }
  return last;
}
