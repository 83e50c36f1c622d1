import { describe, expect, test } from 'vitest';
import { judgeContent, type ContentRules } from '../../src/content/judge-content.ts';
import { blankSniff, type ContentSniff } from '../../src/content/content-sniff.ts';

const rules: ContentRules = {
  allow: [
    'text/plain',
    'text/markdown',
    'application/json',
    'image/png',
    'image/jpeg',
    'image/svg+xml',
    'application/pdf',
  ],
  maxImagePixels: 1_000_000,
};
const sniff = (kind: string, more: Partial<ContentSniff> = {}): ContentSniff => ({
  ...blankSniff(kind, ['text', 'json', 'svg', 'html', 'xml', 'empty'].includes(kind)),
  ...more,
});

describe('judgeContent', () => {
  test.each<[string, string | null, ContentSniff, string, string[]]>([
    ['png as png', 'image/png', sniff('png'), 'allow', []],
    ['apng under image/png', 'image/png', sniff('apng'), 'allow', []],
    ['markdown bytes under text/plain', 'text/plain', sniff('text'), 'allow', []],
    ['json under text/plain', 'text/plain', sniff('json'), 'allow', []],
    ['plain text under application/json', 'application/json', sniff('text'), 'allow', []],
    ['empty text', 'text/plain', sniff('empty'), 'allow', []],
    ['no declared type, png', null, sniff('png'), 'allow', []],
    ['no declared type, text', null, sniff('text'), 'allow', []],
    [
      'executable',
      'image/png',
      sniff('pe', { active: 'a windows pe executable' }),
      'deny',
      ['content.executable', 'content.mime-mismatch'],
    ],
    ['declared type not allowed', 'application/zip', sniff('zip'), 'deny', ['content.type-not-allowed']],
    [
      'declared type unknown to the table',
      'application/x-made-up',
      sniff('text'),
      'deny',
      ['content.type-not-allowed'],
    ],
    ['png bytes declared jpeg', 'image/jpeg', sniff('png'), 'deny', ['content.mime-mismatch']],
    ['pdf bytes declared text', 'text/plain', sniff('pdf'), 'deny', ['content.mime-mismatch']],
    [
      'zip bytes declared png',
      'image/png',
      sniff('zip'),
      'deny',
      ['content.mime-mismatch', 'content.type-not-allowed'],
    ],
    // markup has no magic bytes to contradict a text label (DESIGN §5): a page's script is the browser's finding
    ['html bytes declared text', 'text/plain', sniff('html'), 'allow', []],
    [
      'html bytes with script declared text',
      'text/plain',
      sniff('html', { active: 'a `<script>` element' }),
      'deny',
      ['content.executable'],
    ],
    ['no declared type, zip', null, sniff('zip'), 'deny', ['content.type-not-allowed']],
    ['no declared type, unknown binary', null, sniff('unknown'), 'deny', ['content.type-not-allowed']],
    ['unknown binary under png', 'image/png', sniff('unknown'), 'partial', ['content.uninterpretable']],
    ['empty body under png', 'image/png', sniff('empty'), 'partial', ['content.uninterpretable']],
    ['text under png', 'image/png', sniff('text'), 'partial', ['content.uninterpretable']],
    ['binary under text', 'text/plain', sniff('unknown'), 'partial', ['content.unsafe-text']],
    [
      'terminal escapes in text',
      'text/plain',
      sniff('text', { unsafe: ['text holds terminal escape sequences'] }),
      'partial',
      ['content.unsafe-text'],
    ],
    [
      'truncated png',
      'image/png',
      sniff('png', { uninterpretable: 'truncated png image' }),
      'partial',
      ['content.uninterpretable'],
    ],
    [
      'image over the pixel cap',
      'image/png',
      sniff('png', { width: 2000, height: 1000 }),
      'deny',
      ['content.image-too-large'],
    ],
    ['image at the pixel cap', 'image/png', sniff('png', { width: 1000, height: 1000 }), 'allow', []],
    [
      'octet-stream label, not allowed',
      'application/octet-stream',
      sniff('unknown'),
      'deny',
      ['content.type-not-allowed'],
    ],
  ])('%s', (_, declared, sniffed, effect, codes) => {
    const judged = judgeContent(declared, sniffed, rules);
    expect(judged.effect).toBe(effect);
    expect(judged.findings.map((f) => f.reason.code)).toEqual(codes);
    for (const f of judged.findings) {
      expect(f.reason.stage).toBe('content');
      expect(f.reason.rule).toMatch(/^content\./);
      expect(f.reason.message).not.toMatch(/[A-Z]\S*$|\.$/);
    }
  });
});
