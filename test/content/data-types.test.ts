// A body declared a data type (JSON, CSV, …) is parsed by its consumer, never rendered as markdown: the gate does
// not run the markdown renderers on it (whose work on such a body is thrown away, and can be superlinear: 21 KB of
// `_a*` costs marked and micromark 11 s and 13 s), reads it as HTML only (a host that sniffs it), and judges the
// same bytes declared markdown as markdown. The consumer of each body (JSON.parse, a CSV split) is the oracle that
// it is data.
import { describe, expect, it } from 'vitest';
import { sniffContent } from '../../src/content/sniff-content.ts';
import { WorkBudget } from '../../src/content/work-budget.ts';
import { decideItem } from './decide-item.ts';

// a budget that remembers which families of checks spent from it
class FamilyBudget extends WorkBudget {
  readonly families = new Set<string>();

  override spend(family: string, steps: number): void {
    this.families.add(family);
    super.spend(family, steps);
  }

  // parsers charge their measured time too (parse5 only that way)
  override spendTime(family: string, nanos: number): void {
    this.families.add(family);
    super.spendTime(family, nanos);
  }
}

async function familiesSpent(body: string, declaredMime: string | null): Promise<Set<string>> {
  const budget = new FamilyBudget(Number.POSITIVE_INFINITY);
  await sniffContent(Buffer.from(body, 'utf8'), { declaredMime, budget });
  return budget.families;
}

// a JSON document whose strings spell a `<script>` tag (so the screens in front of the parsers pass) and a run of
// emphasis marks the renderers resolve in quadratic time; 21 KB takes marked 11 s, micromark 13 s
const pathologicalJson = JSON.stringify({ note: '<script>', text: '_a*'.repeat(7000) });
// a CSV whose cell holds a markdown link with a script destination: a link only to a markdown renderer
const csvWithMarkdownLink = 'name,link\nrelease notes,[open](javascript:alert(1))\n';
// a CSV whose cell holds raw HTML with a handler: live to a host that sniffs the text as HTML
const csvWithHtml = 'name,note\nbadge,<img src=x onerror=alert(1)>\n';

describe('a body declared a data type is not rendered as markdown', () => {
  it('the bodies are data to their consumers', () => {
    expect((JSON.parse(pathologicalJson) as { text: string }).text).toHaveLength(21_000);
    expect(csvWithMarkdownLink.split('\n')[1]?.split(',')).toEqual(['release notes', '[open](javascript:alert(1))']);
  });

  it('json declared json spends nothing on markdown or html; declared markdown, it is rendered', async () => {
    const asJson = await familiesSpent(pathologicalJson, 'application/json');
    expect(asJson.has('markdown')).toBe(false);
    expect(asJson.has('html')).toBe(false);
    // the same text declared markdown (a short one: the long one is the renderers' quadratic case) is rendered
    const short = JSON.stringify({ note: '<script>', text: '_a*'.repeat(10) });
    expect((await familiesSpent(short, 'text/markdown')).has('markdown')).toBe(true);
    expect((await familiesSpent(short, null)).has('markdown')).toBe(true);
  });

  it('csv declared csv is read as html, not as markdown', async () => {
    const families = await familiesSpent(csvWithMarkdownLink, 'text/csv');
    expect(families.has('markdown')).toBe(false);
    expect(families.has('html')).toBe(true);
  });

  it('the verdicts: json allowed as json, csv judged as html, the same csv as markdown denied', async () => {
    const json = await decideItem(Buffer.from(pathologicalJson, 'utf8'), 'application/json');
    expect(json.effect).toBe('allow');
    expect((await decideItem(Buffer.from(csvWithMarkdownLink, 'utf8'), 'text/csv')).effect).toBe('allow');
    expect((await decideItem(Buffer.from(csvWithHtml, 'utf8'), 'text/csv')).codes).toContain('content.executable');
    const asMarkdown = await decideItem(Buffer.from(csvWithMarkdownLink, 'utf8'), 'text/markdown');
    expect(asMarkdown.codes).toContain('content.executable');
    expect(asMarkdown.messages).toMatch(/javascript:/);
  });

  it('json inside csv: a json body declared csv is still read as html', async () => {
    const body = JSON.stringify(['<img src=x onerror=alert(1)>']);
    expect((await decideItem(Buffer.from(body, 'utf8'), 'text/csv')).codes).toContain('content.executable');
    expect((await familiesSpent(body, 'text/csv')).has('markdown')).toBe(false);
  });
});
