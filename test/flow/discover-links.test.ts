import { describe, expect, test } from 'vitest';
import { discoverLinks } from '../../src/flow/discover-links.ts';

describe('discoverLinks', () => {
  test.each([
    { name: 'no content', result: {}, links: [], embedded: [] },
    { name: 'content not an array', result: { content: 'resource_link' }, links: [], embedded: [] },
    {
      name: 'a uri inside text is data, not a link',
      result: { content: [{ type: 'text', text: 'see https://evil.example/x and resource_link' }] },
      links: [],
      embedded: [],
    },
    {
      name: 'structuredContent is never followed',
      result: { content: [], structuredContent: { type: 'resource_link', uri: 'https://x' } },
      links: [],
      embedded: [],
    },
    {
      name: 'links keep their content index',
      result: {
        content: [
          { type: 'text', text: 'a' },
          { type: 'resource_link', uri: 'guide://a', name: 'a' },
          { type: 'resource_link', uri: 'guide://b', name: 'b' },
        ],
      },
      links: [1, 2],
      embedded: [],
    },
    {
      name: 'a malformed link is still a link (the gate rejects it)',
      result: { content: [{ type: 'resource_link', uri: 42 }] },
      links: [0],
      embedded: [],
    },
    {
      name: 'embedded resources',
      result: {
        content: [
          { type: 'resource', resource: { uri: 'guide://c', text: 'c' } },
          { type: 'resource', resource: 'bad' },
        ],
      },
      links: [],
      embedded: [0],
    },
  ])('$name', ({ result, links, embedded }) => {
    const found = discoverLinks(result);
    expect(found.links.map((l) => l.index)).toEqual(links);
    expect(found.embedded.map((e) => e.index)).toEqual(embedded);
  });
});
