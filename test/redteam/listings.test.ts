// Red team, surviving links in listings: a server's `resources/list` and `resources/templates/list` reach the model
// (Claude Code hands them over through ListMcpResourcesTool), so an entry whose uri the gate refuses as a link hands
// the address on as a refused link would (a shell or web fetch tool can be pointed at it). Before, both passed whole
// through the proxy and the decorator; now each entry is judged as a link of its server and a refused one is left out.
import { afterEach, describe, expect, test } from 'vitest';
import { maxListedEntries } from '../../src/sdk/route-answer.ts';
import { call, closeAll, hostPath, listingFronts, metadata, proxied } from './scripted-host.ts';

afterEach(closeAll);

const listing = {
  resources: [
    { uri: 'rt://docs/Guide.md', name: 'guide', mimeType: 'text/markdown' },
    { uri: metadata, name: 'creds', mimeType: 'application/json' },
    { uri: 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', name: 'mapped' },
    { uri: 'file:///etc/passwd', name: 'passwd' },
  ],
  resourceTemplates: [
    { uriTemplate: 'rt://docs/{name}', name: 'docs' },
    { uriTemplate: 'http://169.254.169.254/latest/{path}', name: 'imds' },
    { uriTemplate: '{scheme}://169.254.169.254/latest/', name: 'any-scheme' },
  ],
};

for (const [front, lists] of listingFronts(listing))
  describe(`red team, listings through the ${front}`, () => {
    test('refused resources and templates are left out, the others kept', async () => {
      const [resources, templates] = await lists();
      const got = JSON.stringify([resources, templates]);
      expect(got).not.toContain(hostPath);
      expect(got).not.toContain('a9fe');
      expect(got).not.toContain('/etc/passwd');
      expect(got).toContain('rt://docs/Guide.md');
      expect(got).toContain('rt://docs/{name}');
    });
  });

describe('red team, listings: cost', () => {
  const resources = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i % 2 === 0
        ? { uri: `rt://docs/${i}.md`, name: `d${i}` }
        : { uri: `http://10.0.${i % 250}.1/${i}`, name: `p${i}` },
    );

  test(`a page of ${maxListedEntries} resources, half refused, answers with the other half`, {
    timeout: 120_000,
  }, async () => {
    const { host } = await proxied();
    await call(host, { listing: { resources: resources(maxListedEntries) } });
    const answer = (await host.request('resources/list', {})) as { result: { resources: unknown[] } };
    expect(answer.result.resources).toHaveLength(maxListedEntries / 2);
  });

  test('a longer page is withheld whole, answered at once', { timeout: 120_000 }, async () => {
    const { host } = await proxied();
    await call(host, { listing: { resources: resources(maxListedEntries + 1) } });
    const answer = await host.request('resources/list', {});
    expect(JSON.stringify(answer)).toContain('linkgate withheld the listing');
    expect(JSON.stringify(answer)).not.toContain('10.0.');
  });
});
