import { randomUUID } from 'node:crypto';
import { discoverLink } from '../flow/link-steps.ts';
import { type HookContext, linkContext, nowOf } from './hook-context.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import { judgeToolItem } from './hook-embedded.ts';
import { renderedItem } from './rendered-item.ts';
import { SavedFiles } from './saved-files.ts';
import { SessionState, type SeenLink } from './session-state.ts';
import { listedResources, unwrapToolOutput } from './tool-output.ts';

/**
 * After an MCP tool ran: its links go into session state with where they came from; its embedded resources (native,
 * rendered, saved files) are judged like a read, and each withheld one is replaced by its notice.
 */
export async function toolReturned(
  event: HookEvent,
  server: string,
  tool: string,
  context: HookContext,
): Promise<HookAnswer> {
  const output = unwrapToolOutput(event.response);
  if (output.result === null) return { kind: 'none' };
  const items = output.result['content'] as unknown[];
  const at = nowOf(context);
  const saved = new SavedFiles(event.savedDir);
  const seen: SeenLink[] = [];
  const withheld = new Map<number, string>();
  let lastUri = '';
  for (const [index, item] of items.entries()) {
    const rendered = renderedItem(item, lastUri, server);
    if (rendered.kind === 'header') lastUri = rendered.uri;
    if (rendered.kind === 'header' || rendered.kind === 'text') continue;
    if (rendered.kind === 'link') {
      if (typeof rendered.link['uri'] !== 'string') continue;
      const discovered = discoverLink(rendered.link, index, linkContext(server, tool), at);
      const entry: SeenLink = { server, link: keptLink(rendered.link), discovered, toolUseId: event.toolUseId };
      if (rendered.rendered !== undefined) entry.rendered = rendered.rendered;
      seen.push(entry);
      continue;
    }
    const notice = await judgeToolItem(rendered, index, lastUri, saved, context);
    if (notice !== null) withheld.set(index, notice);
  }
  await addSeen(event, seen, context);
  if (withheld.size === 0) return { kind: 'none' };
  const content = items.map((item, index) => {
    const notice = withheld.get(index);
    return notice === undefined ? item : { type: 'text', text: notice };
  });
  return {
    kind: 'replace',
    output: output.wrap({ ...output.result, content }),
    reason: [...withheld.values()].join('\n'),
  };
}

/** After the host listed a server's resources (or a directory's children): each uri goes into session state. */
export async function resourcesListed(
  event: HookEvent,
  server: string | null,
  context: HookContext,
): Promise<HookAnswer> {
  const at = nowOf(context);
  const seen: SeenLink[] = [];
  for (const entry of listedResources(event.response)) {
    const from = typeof entry['server'] === 'string' ? entry['server'] : server;
    if (from === null || typeof entry['uri'] !== 'string') continue;
    const link = keptLink({ ...entry, name: typeof entry['name'] === 'string' ? entry['name'] : entry['uri'] });
    const discovered = discoverLink(link, null, linkContext(from, null), at);
    seen.push({ server: from, link, discovered, toolUseId: event.toolUseId });
  }
  await addSeen(event, seen, context);
  return { kind: 'none' };
}

/** Keeps the links one event saw in the session's state, under the event's tool-use id. */
async function addSeen(event: HookEvent, seen: SeenLink[], context: HookContext): Promise<void> {
  if (seen.length === 0) return;
  const state = await SessionState.open(context.stateDir, event.session);
  await state.addSeen(event.toolUseId ?? randomUUID(), seen);
}

/** The members of a link item the gate judges; everything else a server sent is dropped before it is kept. */
function keptLink(item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const link: Record<string, unknown> = { type: 'resource_link', uri: item['uri'], name: item['name'] };
  for (const key of ['title', 'description', 'mimeType', 'size'] as const)
    if (item[key] !== undefined) link[key] = item[key];
  return link;
}
