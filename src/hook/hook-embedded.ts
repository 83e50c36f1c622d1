import { judgeEmbedded } from '../flow/judge-embedded.ts';
import { type HookContext, modeOf } from './hook-context.ts';
import type { RenderedItem } from './rendered-item.ts';
import type { SavedFiles } from './saved-files.ts';

/** A tool result's item that is no link, header or text: an embedded body, a saved file, or one not recognised. */
export type BodyItem = Exclude<RenderedItem, { kind: 'link' | 'header' | 'text' }>;

/**
 * Judges one embedded body of a tool result like a read and records it; returns the notice that replaces it, or null
 * when it may reach the model (or observe mode withholds nothing). A withheld saved file is deleted.
 */
export async function judgeToolItem(
  rendered: BodyItem,
  index: number,
  lastUri: string,
  saved: SavedFiles,
  context: HookContext,
): Promise<string | null> {
  let resource: Record<string, unknown>;
  if (rendered.kind === 'embedded') resource = rendered.resource;
  else if (rendered.kind === 'saved-file') {
    // a path the host did not save for this session is text from the server: not read, not judged
    if (!(await saved.owns(rendered.path))) return null;
    const blob = await saved.readBase64(rendered.path, context.gate.policy.document.read.maxBytes);
    resource = { uri: rendered.uri };
    if (rendered.mimeType !== undefined) resource['mimeType'] = rendered.mimeType;
    if (blob !== null) resource['blob'] = blob;
  }
  // an item the hook cannot recognise carries no body it can judge: the gate withholds it (content.shape)
  else resource = { uri: lastUri };
  const judged = await judgeEmbedded(context.gate, resource, index, modeOf(context));
  await context.recordEmbedded?.(judged.record);
  // observe mode withholds and deletes nothing (no notice)
  if (judged.notice === null) return null;
  // the model is never pointed at a withheld saved file
  if (rendered.kind === 'saved-file') await saved.remove(rendered.path);
  return judged.notice;
}
