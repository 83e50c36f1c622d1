// Red team, cost: prose beside refused links is searched for each refused uri (surviving-beside.test.ts), so a result
// of many refused links and much prose costs links × characters. 3 000 refused links and 3 000 text items of 1 KB
// kept the proxy busy 33 s on this machine before the search was bounded for all of one result's prose together (as
// one structured value's strings are). The bound counted links × characters, so this prose was withheld whole,
// unsearched; the search is one pass per string, and the bound now counts the characters it costs: all of it is
// searched, the item naming a refused address becomes its notice, the rest is kept.
import { afterEach, expect, test } from 'vitest';
import { tooLargeNotice } from '../../src/flow/structured-links.ts';
import { call, closeAll, link, proxied } from './scripted-host.ts';

afterEach(closeAll);

test('3 000 refused links beside 3 000 prose items: answered in seconds, nothing refused handed on', {
  timeout: 120_000,
}, async () => {
  const { host } = await proxied();
  const n = 3000;
  const content: unknown[] = [];
  for (let i = 0; i < n; i++) content.push(link(`http://10.1.${i % 250}.${Math.floor(i / 250)}/secret-${i}`, `l${i}`));
  for (let i = 0; i < n; i++) content.push({ type: 'text', text: `prose ${i} `.repeat(100) });
  content.push({ type: 'text', text: 'the last one: http://10.1.3.11/secret-2753 now' });
  const started = performance.now();
  const answer = JSON.stringify(await call(host, { result: { content } }));
  // speed is measured, not asserted: the search's bound is what the notice below shows was reached
  console.info(`[measure] 3 000 refused links beside 3 000 prose items: ${Math.round(performance.now() - started)} ms`);
  // the address with its path (a refused link's decision `_meta` names the host alone, a known leftover)
  expect(answer).not.toContain('/secret-');
  expect(answer).not.toContain(JSON.stringify(tooLargeNotice).slice(1, -1));
  expect(answer).toContain('prose 2999 prose');
  // the prose naming one became its link's notice: the link's and its own
  expect(answer).not.toContain('the last one');
  expect(answer.split('linkgate refused the link `l2753`').length - 1).toBe(2);
});
