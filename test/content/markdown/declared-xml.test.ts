// Text declared `application/xml` or `text/xml` is a document to the consumers that read it by that type (an XML
// reader, a browser showing it as XML or reading it raw as a page): no markdown renderer is handed it, so markdown
// syntax in its text (a `[link](javascript:…)`, an `<img>` in a code span) is not rendered. The same bytes under any
// other type, or none, are still rendered; script an XML or HTML reader runs is still withheld under every type.
import { describe, expect, test } from 'vitest';
import { profileGate } from '../consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type Sending } from '../redteam/judge-variants.ts';

// a policy that admits xml by its type (the shipped profile's consumers)
const xmlGate = profileGate(undefined, ['application/xml']);

// feeds that spell markdown in their text (an xml prolog: xml by their bytes; without one, text under an xml type is
// withheld as uninterpretable before any reader)
const bodies: [name: string, text: string][] = [
  [
    'an atom feed whose summary shows a markdown link',
    '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry><summary>See [the docs](javascript:alert(1)) first.</summary></entry></feed>\n',
  ],
  [
    'an rss item whose description is markdown',
    '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><item><title>v2</title><description>\n\n<javascript:alert(1)>\n\n* [changelog](javascript:alert(1))\n</description></item></channel></rss>\n',
  ],
];

const asXml = (uri: string): Sending[] => [
  [uri, 'application/xml'],
  [uri, 'text/xml'],
  [uri, 'application/xml; charset=utf-8'],
];

describe('text declared xml is not rendered as markdown', () => {
  test.each(bodies)('%s is allowed as xml', async (_name, text) => {
    expect(refused(await judgeSendings({ text }, asXml('file:///d/feed'), xmlGate))).toEqual([]);
  });

  test.each(bodies)('%s is still rendered, and withheld, under other types', async (_name, text) => {
    const sendings: Sending[] = [
      ['file:///d/notes', 'text/plain'],
      ['file:///d/notes', 'text/markdown'],
      ['file:///d/notes', undefined],
    ];
    expect(letThrough(await judgeSendings({ text }, sendings, xmlGate))).toEqual([]);
  });

  test.each(bodies)(
    '%s is still rendered, and withheld, when its uri names a markdown document',
    async (_name, text) => {
      const sendings = ['README.md', 'notes.markdown', 'CHANGES.MD'].flatMap((name) => asXml(`https://x.test/${name}`));
      expect(letThrough(await judgeSendings({ text }, sendings, xmlGate))).toEqual([]);
    },
  );

  test.each([
    [
      'an xhtml script in xml',
      '<?xml version="1.0"?>\n<doc><script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></doc>\n',
    ],
    ['an html page declared xml', '<p>x</p><img src=x onerror=alert(1)>\n'],
    ['an svg declared xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>\n'],
  ])('%s is still withheld as xml', async (_name, text) => {
    expect(letThrough(await judgeSendings({ text }, asXml('file:///d/doc'), xmlGate))).toEqual([]);
  });
});
