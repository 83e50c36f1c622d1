// Where markdown shows text as code: the lines of fenced and indented code blocks as markdown-it (CommonMark)
// reads them, at any depth (in block quotes and lists). Text there is shown, never run or opened.
import type { WorkBudget } from '../work-budget.ts';
import { commonMark, type MarkdownEnv } from './markdown-renderers.ts';

/** True when every byte offset of `offsets` into the UTF-8 `bytes` of markdown `text` lies on a line inside a code block (not on its fence lines). */
export function allInCodeBlocks(bytes: Buffer, text: string, offsets: readonly number[], budget: WorkBudget): boolean {
  budget.spend('markdown', text.length);
  const env: MarkdownEnv = { budget };
  const code: [number, number][] = [];
  for (const token of commonMark().parse(text, env)) {
    if (token.map === null) continue;
    // a fence's first line is its opening fence; a closed fence's last line its closing one
    if (token.type === 'fence') code.push([token.map[0] + 1, token.map[1]]);
    else if (token.type === 'code_block') code.push([token.map[0], token.map[1]]);
  }
  if (code.length === 0) return false;
  return lineNumbers(bytes, offsets).every((line) => code.some(([start, end]) => line >= start && line < end));
}

// the line of each offset as markdown-it counts lines: LF, CR LF and a lone CR each end one
function lineNumbers(bytes: Buffer, offsets: readonly number[]): number[] {
  const sorted = [...offsets].sort((a, b) => a - b);
  const lines: number[] = [];
  let line = 0;
  let at = 0;
  for (const offset of sorted) {
    for (; at < offset; at++) {
      const b = bytes[at];
      if (b === 0x0a || (b === 0x0d && bytes[at + 1] !== 0x0a)) line++;
    }
    lines.push(line);
  }
  return lines;
}
