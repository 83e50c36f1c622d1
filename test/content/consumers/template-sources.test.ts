// Component and template sources declared text/plain (or application/octet-stream) that open with a tag: a
// `.vue` component's `<template>` or `<script setup>`, a `.svelte` one's `<script>`, a `.php` page's `<?php`, an
// `.html.erb` layout's doctype. No browser sniffs either type as a page, and every consumer that goes by the name
// shows them as code (issue 41 item 5, the lead's call): the browser consumer's margin for text/plain that opens with
// a tag, and the markup root its bytes spell, no longer make them pages. Under no type (a sniffing browser), or named
// `.html`, `.txt`, `.xml` or nothing, the same bodies are still withheld.
import { describe, expect, test } from 'vitest';
import { judgeSendings, letThrough, refused, type Sending } from '../redteam/judge-variants.ts';
import { profileGate } from './profile-gate.ts';

// the template extensions of src/content/text/uri-extension.ts, each with a body in its own syntax that opens with a
// tag and runs script when a browser renders it as a page
const templates: [ext: string, body: string][] = [
  [
    'vue',
    '<template>\n  <p @click="go">{{ msg }}</p>\n</template>\n<script>\nexport default { methods: { go() {} } };\n</script>\n',
  ],
  [
    'svelte',
    '<script lang="ts">\n  export let name: string;\n</script>\n\n<h1 on:click={() => alert(name)}>Hello {name}</h1>\n',
  ],
  ['astro', '<html lang="en">\n<head><script>console.log(Astro.url)</script></head>\n<body><slot /></body>\n</html>\n'],
  [
    'erb',
    '<!DOCTYPE html>\n<html>\n<head><%= javascript_include_tag "application" %></head>\n<body onload="App.init()"><%= yield %></body>\n</html>\n',
  ],
  ['hbs', '<ul>{{#each items}}<li><a href="{{url}}">{{name}}</a></li>{{/each}}</ul>\n<script>init();</script>\n'],
  ['handlebars', '<div class="entry">{{> header}}<button onclick="save()">Save</button></div>\n'],
  ['mustache', '<section>{{#user}}<img src="{{avatar}}" onerror="this.remove()">{{/user}}</section>\n'],
  ['ejs', '<body>\n<% if (user) { %>\n<script>window.USER = <%- JSON.stringify(user) %>;</script>\n<% } %>\n</body>\n'],
  ['njk', '<main>{% block content %}{% endblock %}</main>\n<script src="/app.js"></script><script>boot()</script>\n'],
  [
    'liquid',
    '<div>{% for p in products %}<a href="{{ p.url }}">{{ p.title }}</a>{% endfor %}</div>\n<script>cart()</script>\n',
  ],
  ['twig', '<!DOCTYPE html>\n<html><body>{% block body %}{% endblock %}<script>init()</script></body></html>\n'],
  ['jinja', '<form method="post">{{ form.csrf_token }}<input name="q" onfocus="hint()"></form>\n'],
  [
    'jinja2',
    '<nav>{% for i in items %}<a href="{{ i.href }}">{{ i.caption }}</a>{% endfor %}</nav><script>menu()</script>\n',
  ],
  ['j2', '<html><head><title>{{ title }}</title></head><body onload="go()"></body></html>\n'],
  [
    'php',
    '<?php get_header(); ?>\n<div class="post" onclick="expand(this)"><?php the_content(); ?></div>\n<script>init();</script>\n',
  ],
];

const octet = profileGate(undefined, ['application/octet-stream']);

describe('a template source declared text/plain or octet-stream that opens with a tag is code', () => {
  test.each(templates)('.%s', async (ext, body) => {
    const uri = `file:///src/views/page.${ext}`;
    expect(refused(await judgeSendings({ text: body }, [[uri, 'text/plain']]))).toEqual([]);
    expect(refused(await judgeSendings({ text: body }, [[uri, 'application/octet-stream']], octet))).toEqual([]);
  });

  test('upper-case extensions and a `.html.erb` name are the same source', async () => {
    const [, vue] = templates[0] as [string, string];
    const [, erb] = templates[3] as [string, string];
    expect(refused(await judgeSendings({ text: vue }, [['file:///src/App.VUE', 'text/plain']]))).toEqual([]);
    expect(
      refused(await judgeSendings({ text: erb }, [['file:///app/views/layouts/application.html.erb', 'text/plain']])),
    ).toEqual([]);
  });
});

describe('the same bodies under other names or no type are still withheld', () => {
  test.each(templates)('.%s', async (ext, body) => {
    const sendings: Sending[] = [
      // a browser sniffs an untyped body that opens with a tag
      [`file:///src/views/page.${ext}`, undefined],
      // a page by its name, text by its name, no name: the margin stays
      ['file:///src/views/page.html', 'text/plain'],
      ['file:///src/views/page.txt', 'text/plain'],
      ['file:///src/views/page', 'text/plain'],
    ];
    expect(letThrough(await judgeSendings({ text: body }, sendings))).toEqual([]);
  });

  test('a `.xml` (or `.json`) name declared text/plain stays a document a browser renders by its name', async () => {
    const xhtml = '<feed><script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></feed>\n';
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n';
    const sendings: Sending[] = [
      ['file:///d/feed.xml', 'text/plain'],
      ['file:///d/data.json', 'text/plain'],
    ];
    expect(letThrough(await judgeSendings({ text: xhtml }, sendings))).toEqual([]);
    expect(letThrough(await judgeSendings({ text: svg }, sendings))).toEqual([]);
  });
});
