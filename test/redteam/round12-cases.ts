// What round 12's files share: the item shapes its surviving and notice cases nest a link in (an embedded JSON
// resource, as text or as a base64 blob), the names that spell part of the refused metadata address, and what a host
// hands the model after its hook ran (the hook's answer, or the event's own result when the hook answered nothing).
import { handed } from './round10-hosts.ts';
import { link } from './scripted-host.ts';

/** An ordinary address nobody refuses. */
export const ordinary = 'https://docs.example/guide/a.txt';

/** An embedded `resource` item at `uri` holding `text` (JSON by default). */
export const embedded = (uri: string, text: string, mimeType = 'application/json') => ({
  type: 'resource',
  resource: { uri, mimeType, text },
});

/** The JSON text of a tool result whose one item is a `resource_link` to `uri`. */
export const resultText = (uri: string, name = 'next') => JSON.stringify({ content: [link(uri, name)] });

/** An embedded JSON resource whose text is a tool result holding an embedded JSON resource holding the link to `uri`. */
export const nestedJson = (uri: string) =>
  embedded('rt://docs/outer.json', JSON.stringify({ content: [embedded('rt://docs/inner.json', resultText(uri))] }));

/** Names of the refused metadata link that spell a part of its address: its parent path, its bare host. */
export const partNames = {
  'parent path name': 'http://169.254.169.254/latest/meta-data/iam/',
  'bare host name': 'keys at 169.254.169.254 on the box',
} as const;

/** The refused host as a notice must not spell it. */
export const refusedHost = '169.254.169.254';

/** What the host hands the model after the hook: the hook's answer, or the event's result when it answered nothing. */
export const givenOn = (stdout: string, event: unknown): string =>
  stdout.trim() === '' ? JSON.stringify(event) : handed(stdout);

/** `text` with the base64 of each `blob` and `data` member decoded beside it (a host decodes them for the model). */
export const decoded = (text: string): string =>
  [text, ...[...text.matchAll(/"(?:data|blob)":"([^"]*)"/g)].map((m) => Buffer.from(m[1] ?? '', 'base64'))].join('\n');
