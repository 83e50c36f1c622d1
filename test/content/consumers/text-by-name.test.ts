// Text a host shows as text by its name (round 10, over-blocks): patches, configuration, logs and shell sources quote markup (a page's `<script>` in a patch, a head snippet in a site config, probes in a
// server log) that no consumer renders: no markdown renderer is handed a `.patch`, `.yaml`, `.toml`, `.log` or
// `.sh`, and no browser sniffs text/plain as a page. Untyped, a body that opens with a tag is still read as the page
// a sniffing browser makes of it, and a `#!` line is still a script to the shell consumer, whatever it names over a
// `.sh` (DESIGN §5: inert text has no shebang, shebang scripts are denied; round 10's text-shell control asserts it).
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, sendingsOf } from '../redteam/judge-variants.ts';

const quoting: [ext: string, body: string][] = [
  ['patch', '--- a/index.html\n+++ b/index.html\n@@ -1,2 +1,3 @@\n <head>\n+<script src="app.js"></script>\n</head>\n'],
  ['diff', '@@ -1 +1 @@\n-<p>old</p>\n+<p onclick="go()">new</p>\n'],
  ['yaml', 'head:\n  - \'<script src="https://stats.example/s.js"></script>\'\n'],
  ['yml', 'extra_head: <iframe src="https://example.com/widget"></iframe>\n'],
  ['toml', '[params]\ncustomHead = \'<script defer src="/js/stats.js"></script>\'\n'],
  ['ini', '[banner]\nhtml = <img src=x onerror=track()>\n'],
  ['conf', 'add_header X-Note "<script>alert(1)</script>";\n'],
  ['log', '10.0.0.9 - - "GET /?q=<script>alert(1)</script> HTTP/1.1" 400 0\n'],
  ['sh', 'cat > out.html <<EOF\n<script src="app.js"></script>\nEOF\n'],
  ['bash', 'echo "<img src=x onerror=alert(1)>" > page.html\n'],
];

describe('text shown as text by its name quotes markup inertly', () => {
  test.each(quoting)('.%s sent as text/plain or with no type is allowed', async (ext, body) => {
    expect(
      refused(
        await judgeSendings({ text: body }, sendingsOf(`guide://repo/file.${ext}`, [''], ['text/plain', undefined])),
      ),
    ).toEqual([]);
  });

  test('the same bodies named as markdown or nothing are still read as markdown and withheld', async () => {
    for (const [, body] of quoting.filter(([ext]) => !['sh', 'bash', 'log', 'ini', 'conf'].includes(ext)))
      expect(
        letThrough(await judgeSendings({ text: body }, sendingsOf('guide://repo/notes', ['.md', ''], ['text/plain']))),
      ).toEqual([]);
  });

  test('untyped, a config that is a page opening with a tag is still read as the page a sniffing browser makes', async () => {
    const page = '<html><body><script>alert(1)</script></body></html>\n';
    expect(
      letThrough(
        await judgeSendings({ text: page }, sendingsOf('guide://site/config', ['.yaml', '.log'], [undefined])),
      ),
    ).toEqual([]);
  });

  test('a `.sh` whose `#!` names its own shell or another interpreter, or a `.command`, is still a script', async () => {
    expect(
      letThrough(await judgeSendings({ text: '#!/bin/sh\nid\n' }, [['guide://repo/run.sh', 'text/plain']])),
    ).toEqual([]);
    expect(
      letThrough(
        await judgeSendings({ text: '#!/usr/bin/env python3\nimport os\n' }, [['guide://repo/run.sh', 'text/plain']]),
      ),
    ).toEqual([]);
    expect(
      letThrough(await judgeSendings({ text: '#!/bin/sh\nid\n' }, [['guide://repo/run.command', 'text/plain']])),
    ).toEqual([]);
    expect(letThrough(await judgeSendings({ text: '#!/bin/sh\nid\n' }, [['guide://repo/run', 'text/plain']]))).toEqual(
      [],
    );
  });
});

// a dotenv file is named by its name (`.env`, `.env.local`): a host going by the name shows it as the `site.env` it
// names alike; its markup is quoted text, not a page
describe('a dotfile is named by its name', () => {
  const dotenv = 'SITE_NAME=Docs\nSITE_FOOTER=<script src="https://stats.example/s.js"></script>\n';

  test('a `.env` and its variants quoting markup are allowed as text/plain or with no type', async () => {
    expect(
      refused(
        await judgeSendings(
          { text: dotenv },
          sendingsOf('guide://repo/', ['.env', '.env.local', '.env.example', 'site.env'], ['text/plain', undefined]),
        ),
      ),
    ).toEqual([]);
  });

  test('the same body named as markdown, or a `.env.html`, is still withheld', async () => {
    expect(
      letThrough(
        await judgeSendings({ text: dotenv }, sendingsOf('guide://repo/', ['.env.md', 'notes'], ['text/plain'])),
      ),
    ).toEqual([]);
    const page = '<html><body><script>alert(1)</script></body></html>\n';
    expect(
      letThrough(await judgeSendings({ text: page }, sendingsOf('guide://repo/', ['.env', '.env.html'], [undefined]))),
    ).toEqual([]);
  });

  test('a dotfile named as a launcher or a script by its name is still one', async () => {
    expect(
      letThrough(await judgeSendings({ text: '@echo off\ndel /q *\n' }, [['guide://repo/.bat', 'text/plain']])),
    ).toEqual([]);
  });
});
