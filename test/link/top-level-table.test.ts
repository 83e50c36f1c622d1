// The table of top-level labels is generated (scripts/top-level-table.ts): the committed file must be what the lists
// make now, so a change to root-zone.ts, classify-host-name.ts, wildcard-dns.ts or the `tlds` package cannot leave
// classifyHostName judging by an old list.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { topLevelKinds, topLevelTableFile, topLevelTableSource } from '../../scripts/top-level-table.ts';
import { classifyHostName } from '../../src/link/classify-host-name.ts';

describe('top-level-table.ts', () => {
  test('is what scripts/gen-top-level-table.ts writes from the lists now', async () => {
    expect(await readFile(topLevelTableFile, 'utf8')).toBe(topLevelTableSource());
  });

  test('every listed label is judged by its own bits, upper or lower case in the pass, with and without a trailing dot', () => {
    const kinds = topLevelKinds();
    expect(kinds.size).toBeGreaterThan(1000);
    for (const [label, kind] of kinds) {
      const verdict = classifyHostName(`www.${label}`);
      const delegated = (kind & 4) !== 0;
      const internal = (kind & 1) !== 0;
      if (label === 'localhost') expect(verdict.class).toBe('localhost');
      else if (internal) expect(verdict.class, label).toBe('internal-tld');
      else if (delegated) expect(verdict.public, label).toBe(true);
      expect(classifyHostName(`www.${label}.`).class, label).toBe(verdict.class);
    }
    // a label that is on no list and not an IDN is undelegated
    expect(classifyHostName('www.notatld-zz').class).toBe('undelegated-tld');
    expect(classifyHostName('www.xn--notlisted-zz').public).toBe(true);
  });
});
