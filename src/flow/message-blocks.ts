import { isRecord } from '../decision/json-value.ts';

// The content blocks of a prompt result's or a sampling request's `messages`: a message holds one block (2025-06-18)
// or a list of them (later revisions), and a `tool_result` block (2025-11-25 sampling) a list of its own (one level:
// a block in it is no tool result). Each block has one position among all of them, so two blocks of one message list
// (the same link at the same place of two messages, say) never share a record or its ref.

/** One content block of a list of messages, with its position and its path. */
export interface MessageBlock {
  block: unknown;
  /**
   * its position among every block of the messages (a record's `contentIndex`): counted in order over the messages,
   * a `tool_result` block's own blocks right after it
   */
  position: number;
  /** its path from the list of messages: `[message, 'content']` for a message's one block, then an index in a list */
  path: (string | number)[];
}

/** Puts a value in a block's place (undefined: the block stays). */
type Visit = (block: MessageBlock) => unknown;

/** Every block of `messages`, in position order (none when it is not a list). */
export function messageBlocks(messages: unknown): MessageBlock[] {
  const blocks: MessageBlock[] = [];
  if (Array.isArray(messages)) walkMessages(messages, (b) => void blocks.push(b));
  return blocks;
}

/**
 * `messages` with the block at each position `replacement` names replaced, a message or `tool_result` block copied only
 * when something in it was; null when nothing was.
 */
export function replaceMessageBlocks(
  messages: readonly unknown[],
  replacement: ReadonlyMap<number, unknown>,
): unknown[] | null {
  if (replacement.size === 0) return null;
  return walkMessages(messages, (b) => replacement.get(b.position));
}

function walkMessages(messages: readonly unknown[], visit: Visit): unknown[] | null {
  const at = { next: 0 };
  let out: unknown[] | null = null;
  messages.forEach((message, m) => {
    if (!isRecord(message)) return;
    const content = message['content'];
    const one = !Array.isArray(content);
    const list: readonly unknown[] = one ? [content] : content;
    const changed = walkList(list, one ? [m, 'content'] : [m, 'content', 0], one, false, at, visit);
    if (changed === null) return;
    out ??= messages.slice();
    out[m] = { ...message, content: one ? changed[0] : changed };
  });
  return out;
}

// `list`'s blocks numbered from `at.next` on; `path` is the first block's (its last index counts on, unless `one`)
function walkList(
  list: readonly unknown[],
  path: (string | number)[],
  one: boolean,
  nested: boolean,
  at: { next: number },
  visit: Visit,
): unknown[] | null {
  let out: unknown[] | null = null;
  list.forEach((block, i) => {
    const blockPath = one ? path : [...path.slice(0, -1), i];
    let value = visit({ block, position: at.next++, path: blockPath });
    if (!nested && isRecord(block) && block['type'] === 'tool_result' && Array.isArray(block['content'])) {
      const inner = walkList(block['content'], [...blockPath, 'content', 0], false, true, at, visit);
      if (value === undefined && inner !== null) value = { ...block, content: inner };
    }
    if (value === undefined) return;
    out ??= list.slice();
    out[i] = value;
  });
  return out;
}
