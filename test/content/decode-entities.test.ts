import { describe, expect, test } from 'vitest';
import { decodeCharacterReferences } from '../../src/content/decode-entities.ts';

describe('decodeCharacterReferences', () => {
  test.each([
    ['jav&#x61;script:', 'javascript:'],
    ['jav&#X61;script:', 'javascript:'],
    ['jav&#97;script:', 'javascript:'],
    ['&#106avascript:', 'javascript:'],
    ['javascript&colon;', 'javascript:'],
    ['java&Tab;script:', 'java\tscript:'],
    ['&lt;script&gt;', '<script>'],
    ['&amp;#x61;', '&#x61;'],
    ['&unknown; stays', '&unknown; stays'],
    ['&#0; &#xD800; &#x110000;', '\ufffd \ufffd \ufffd'],
    ['no references', 'no references'],
  ])('%j → %j', (input, output) => {
    expect(decodeCharacterReferences(input)).toBe(output);
  });
});
