import type { EditedFrom, MessageEdit } from '../sdk/message-edits.ts';

/**
 * A message the gate changed, as a line transport writes it: the message it came as and the edits, spliced into that
 * message's bytes when it is written (`frameOf`). Nothing of the message is copied: a tool result whose 500 links
 * each get their decision costs its edits and one splice, not a copy of every item edited.
 */
export class EditedLine implements EditedFrom {
  constructor(
    readonly from: object,
    readonly edits: readonly MessageEdit[],
  ) {}

  /** Whether it answers a request (the message it came as has no `method`), as the host's outbox orders it. */
  get isAnswer(): boolean {
    return !('method' in this.from);
  }
}
