/** Malformed eval lines made by the project: each entry is raw line text and what is wrong with it. */
export interface MalformedLine {
  what: string;
  text: string;
}

const goodLink = {
  type: 'resource_link',
  uri: 'guide://manuals/packing',
  name: 'packing',
  mimeType: 'text/plain',
  size: 120,
};
const goodItem = { uri: 'guide://manuals/packing', mimeType: 'text/plain', text: 'hello' };

function withPath(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** At least 200 malformed lines: missing/mistyped fields, nulls, non-json, nesting, huge strings, prototype keys, bad bodies. */
export function malformedLines(): MalformedLine[] {
  const out: MalformedLine[] = [];
  const add = (what: string, value: unknown) =>
    out.push({ what, text: typeof value === 'string' ? value : JSON.stringify(value) });

  // not json, or json that is not an object
  for (const text of [
    '',
    ' ',
    'not json',
    '{',
    '}',
    '{"stage":',
    '[1,2',
    'nul',
    'tru',
    "{'stage':'link'}",
    '{"a":1}{"b":2}',
    '\u0000',
    '\ufeff{"stage":"link"}x',
    'NaN',
    'undefined',
    '{"stage":"link",}',
  ])
    add(`non-json ${JSON.stringify(text)}`, text);
  for (const v of [null, true, false, 0, -1, 1.5, 'link', [], [{ stage: 'link' }], {}])
    add(`non-object ${JSON.stringify(v)}`, JSON.stringify(v));

  const link = { stage: 'link', server: 'docs', link: goodLink };
  const read = {
    stage: 'read',
    server: 'docs',
    readFrom: 'docs',
    link: goodLink,
    elapsedMs: 3,
    result: { resultType: 'complete', contents: [goodItem] },
  };
  const cred = {
    stage: 'credential',
    kind: 'authorization',
    from: 'https://a.example.com/',
    to: 'https://a.example.com/x',
  };

  // stage field
  for (const stage of [undefined, null, 1, 'LINK', 'links', 'fetch', ['link'], { v: 'link' }, ''])
    add(`stage ${JSON.stringify(stage)}`, withPath(link, ['stage'], stage));

  // every field of each stage: missing, null, and each wrong type
  const wrongTypes: unknown[] = [null, 42, -1, true, [], {}, 'x'.repeat(3)];
  const fields: Array<[Record<string, unknown>, string[], unknown[]]> = [
    [link, ['link'], [undefined, null, 'guide://x', [], 7]],
    [link, ['link', 'uri'], [undefined, ...wrongTypes.filter((v) => typeof v !== 'string')]],
    [link, ['link', 'name'], [undefined, null, 5, {}]],
    [link, ['link', 'type'], [undefined, 'resource', 'text', null, 1]],
    [link, ['link', 'size'], ['120', null, true, [], -1, -0.5, 1.5, 1e300 * 10]],
    [link, ['link', 'mimeType'], [null, 5, [], {}]],
    [link, ['server'], [null, 5, '', [], {}]],
    [link, ['readFrom'], [null, 5, '', []]],
    [read, ['result'], [undefined, null, 'complete', [], 5]],
    [read, ['elapsedMs'], ['3', null, -1, true]],
    [read, ['link'], [undefined, null, {}]],
    [cred, ['kind'], [undefined, null, 'password', 'Authorization', 5]],
    [cred, ['from'], [undefined, null, 5, []]],
    [cred, ['to'], [undefined, null, 5, {}]],
    [cred, ['via'], [null, 'https://a/', [5], [null], {}]],
  ];
  for (const [base, path, values] of fields) {
    for (const v of values)
      add(`${String(base.stage)} ${path.join('.')}=${JSON.stringify(v) ?? 'missing'}`, withPath(base, path, v));
  }

  // unknown and prototype keys
  for (const key of ['__proto__', 'constructor', 'prototype', 'extra', 'Stage']) {
    add(
      `link top-level key ${key}`,
      `{"stage":"link","server":"docs","link":${JSON.stringify(goodLink)},${JSON.stringify(key)}:{"polluted":true}}`,
    );
    add(
      `credential top-level key ${key}`,
      `{"stage":"credential","kind":"cookie","from":"https://a.example.com/","to":"https://b.example.com/",${JSON.stringify(key)}:1}`,
    );
  }
  add('__proto__ as the stage object', '{"__proto__":{"stage":"link"},"server":"docs"}');

  // deep nesting and huge strings
  add('deeply nested arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`);
  add('deeply nested link', withPath(link, ['link'], JSON.parse(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`)));
  add('deeply nested result', { ...read, result: JSON.parse(`${'{"contents":'.repeat(1000)}[]${'}'.repeat(1000)}`) });

  // uris that must never be allowed
  const badUris = [
    '',
    ' ',
    'http://',
    'http://[::1',
    'http://exa mple.com/',
    'https://example.com\u0000.evil/',
    'https://exa\tmple.com/',
    'http://\u0007bell/',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'http://127.0.0.1/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://169.254.169.254/latest',
    'http://user:pw@example.com/',
    'http:\\\\example.com\\',
    'http://example.com#@evil/',
    '//example.com/x',
    'blob:https://example.com/uuid',
    'gopher://127.0.0.1:25/',
    'http://localhost/',
    'http://metadata.google.internal/',
    'https://10.0.0.1/',
    'http://[fd00:ec2::254]/',
    'https://0/',
  ];
  for (const uri of badUris) add(`bad uri ${JSON.stringify(uri)}`, withPath(link, ['link', 'uri'], uri));
  for (const uri of badUris.slice(0, 12))
    add(`bad credential from ${JSON.stringify(uri)}`, withPath(cred, ['from'], uri));
  add('huge uri', withPath(link, ['link', 'uri'], `guide://x/${'a'.repeat(2_000_000)}`));

  // read results that must never be allowed
  const results: Array<[string, unknown]> = [
    ['empty contents', { resultType: 'complete', contents: [] }],
    ['contents missing', { resultType: 'complete' }],
    ['contents null', { contents: null }],
    ['contents a string', { contents: 'hello' }],
    ['contents an object', { contents: { 0: goodItem } }],
    ['item null', { contents: [null] }],
    ['item a string', { contents: ['hello'] }],
    ['item a number', { contents: [5] }],
    ['both text and blob', { contents: [{ ...goodItem, blob: 'aGVsbG8=' }] }],
    ['neither text nor blob', { contents: [{ uri: goodItem.uri, mimeType: 'text/plain' }] }],
    ['text not a string', { contents: [{ uri: goodItem.uri, text: 5 }] }],
    ['blob not a string', { contents: [{ uri: goodItem.uri, blob: ['aGk='] }] }],
    ['blob invalid base64 chars', { contents: [{ uri: goodItem.uri, mimeType: 'image/png', blob: 'iVBO!!!=' }] }],
    ['blob bad padding', { contents: [{ uri: goodItem.uri, mimeType: 'image/png', blob: 'iVBORw0=' + '=' }] }],
    ['blob with whitespace', { contents: [{ uri: goodItem.uri, mimeType: 'image/png', blob: 'iVBO Rw0K' }] }],
    ['blob url-safe alphabet', { contents: [{ uri: goodItem.uri, mimeType: 'image/png', blob: 'iVBO_-0K' }] }],
    ['blob length not multiple of 4', { contents: [{ uri: goodItem.uri, mimeType: 'image/png', blob: 'iVBORw0' }] }],
    ['unknown resultType', { resultType: 'partial', contents: [goodItem] }],
    ['resultType null', { resultType: null, contents: [goodItem] }],
    ['resultType number', { resultType: 1, contents: [goodItem] }],
    ['resultType COMPLETE', { resultType: 'COMPLETE', contents: [goodItem] }],
    ['input_required', { resultType: 'input_required', inputRequests: {}, requestState: 'opaque' }],
    ['task without policy', { resultType: 'task', task: { taskId: 't1' } }],
    ['json-rpc error not found', { error: { code: -32602, message: 'Resource not found' } }],
    ['json-rpc legacy not found', { error: { code: -32002, message: 'Resource not found' } }],
    ['json-rpc internal', { error: { code: -32603, message: 'boom' } }],
    ['json-rpc error malformed', { error: 'boom' }],
    ['json-rpc error with no code', { error: { message: 'boom' } }],
    ['item uri elsewhere', { contents: [{ ...goodItem, uri: 'guide://other/secret' }] }],
    ['item uri sibling prefix', { contents: [{ ...goodItem, uri: 'guide://manuals/packing-secret' }] }],
    ['item uri not a string', { contents: [{ ...goodItem, uri: 5 }] }],
    ['executable as text', { contents: [{ ...goodItem, text: '#!/bin/sh\nrm -rf /\n' }] }],
    ['html script as text', { contents: [{ ...goodItem, text: '<script>alert(1)</script>' }] }],
    [
      'elf as png',
      {
        contents: [
          {
            uri: goodItem.uri,
            mimeType: 'image/png',
            blob: Buffer.from('\u007fELF\u0002\u0001\u0001\u0000' + '\u0000'.repeat(56), 'latin1').toString('base64'),
          },
        ],
      },
    ],
    [
      'pe as png',
      {
        contents: [
          {
            uri: goodItem.uri,
            mimeType: 'image/png',
            blob: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0')]).toString('base64'),
          },
        ],
      },
    ],
  ];
  for (const [what, result] of results) add(`read result: ${what}`, { ...read, result });
  // the same failures from a server on 2025-11-25, which sends no resultType (those rows about resultType itself excluded)
  for (const [what, result] of results.slice(0, 17))
    add(`read result on 2025-11-25 shape: ${what}`, {
      ...read,
      result: { ...(result as object), resultType: undefined },
    });
  add('read elapsed over deadline', { ...read, elapsedMs: 10_000_000 });
  add('read from another server', { ...read, readFrom: 'other' });
  add('too many items', { ...read, result: { contents: Array.from({ length: 500 }, () => goodItem) } });

  // credential lines that must be stripped
  const strips: Array<[string, string, string[]?]> = [
    ['https://a.example.com/', 'http://a.example.com/'],
    ['https://a.example.com/', 'https://a.example.com:8443/'],
    ['https://a.example.com/', 'https://b.a.example.com/'],
    ['https://b.a.example.com/', 'https://a.example.com/'],
    ['https://a.example.com/', 'https://a.example.com/', ['https://evil.example.net/']],
    ['https://u:p@a.example.com/', 'https://a.example.com/'],
    ['https://a.example.com/', 'not a url'],
  ];
  for (const [from, to, via] of strips)
    add(`credential ${from} → ${to}`, { ...cred, from, to, ...(via ? { via } : {}) });
  return out;
}
