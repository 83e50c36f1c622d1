import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { classifyAddress } from '../../src/link/classify-address.ts';
import { parseUri } from '../../src/link/parse-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

// An attacker controls a tool result's `resource_link` uri and wants the host to read something non-public.
// Every probe runs under both shipped policies that admit network links (DESIGN §5); names are judged by text.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const policyFiles = ['policies/default.yaml', 'policies/web-public.yaml'] as const;

let gates: readonly (readonly [string, Gate])[];

beforeAll(async () => {
  gates = await Promise.all(
    policyFiles.map(
      async (file) => [file, createGate(await loadPolicy(path.join(repoRoot, file)), { resolve: 'none' })] as const,
    ),
  );
});

function decide(gate: Gate, uri: string): Decision {
  return gate.decideLink({ stage: 'link', server: 'default', link: { type: 'resource_link', uri, name: 'probe' } });
}

function codes(decision: Decision): string[] {
  return decision.reasons.map((r) => r.code);
}

/** A probe that both policies must deny, with `code` among the reasons. */
type DenyRow = readonly [uri: string, code: string];

function expectDeniedEverywhere(uri: string, code: string): void {
  for (const [file, gate] of gates) {
    const decision = decide(gate, uri);
    expect(decision.effect, `${file}: ${JSON.stringify(uri)}`).toBe('deny');
    expect(codes(decision), `${file}: ${JSON.stringify(uri)}`).toContain(code);
  }
}

describe('bypasses found in review: now denied', () => {
  it.each<DenyRow>([
    // a NUL, space, tab or line break after percent-decoding: C strings end at NUL, inet_aton stops at a space
    ['guide://127.0.0.1%00/x', 'uri.parser-confusion'],
    ['guide://localhost%00.evil.com/x', 'uri.parser-confusion'],
    ['guide://metadata.google.internal%00/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%20evil/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%09/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%0a/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%2500/x', 'uri.parser-confusion'],
    // a decoded `:` makes IPv6 text or a port; a decoded `@`, `/`, `#` or `\` moves the host
    ['guide://%3a%3a1/x', 'uri.parser-confusion'],
    ['guide://%5B%3A%3A1%5D/x', 'uri.parser-confusion'],
    ['guide://%3A%3Affff%3A127.0.0.1/x', 'uri.parser-confusion'],
    ['guide://fe80%3a%3a1/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%3a80/x', 'uri.parser-confusion'],
    ['guide://evil.com%40127.0.0.1/x', 'uri.parser-confusion'],
    ['guide://169.254.169.254%2f/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%23/x', 'uri.parser-confusion'],
    ['guide://127.0.0.1%5c/x', 'uri.parser-confusion'],
    // numbers WHATWG rejects as IPv4 for special schemes; lenient parsers wrap them (425.510.425.510)
    ['guide://256.0.0.1/x', 'uri.invalid'],
    ['guide://425.510.425.510/x', 'uri.invalid'],
    ['guide://4294967296/x', 'uri.invalid'],
    ['guide://6425673729/x', 'uri.invalid'],
    ['guide://1.2.3.4.5/x', 'uri.invalid'],
    ['guide://127.0.0.1.5/x', 'uri.invalid'],
    ['guide://..127.0.0.1/x', 'uri.invalid'],
    ['guide://08.0.0.1/x', 'uri.invalid'],
    ['guide://２５６.0.0.1/x', 'uri.invalid'],
    // empty labels a resolver may drop
    ['guide://127.0.0.1../x', 'uri.non-public-address'],
    ['guide://127.0.0.1.../x', 'uri.non-public-address'],
    ['guide://0x7f.0.0.1../x', 'uri.non-public-address'],
    ['guide://localhost../x', 'uri.non-public-address'],
    ['guide://..localhost/x', 'uri.non-public-address'],
    ['guide://metadata.google.internal../x', 'uri.non-public-address'],
    // IDNA2003 (transitional) deletes ZWJ/ZWNJ: that reading of the host is judged too (issue 23)
    ['guide://loc\u200dalhost/x', 'uri.non-public-address'],
    ['guide://loc%E2%80%8Dalhost/x', 'uri.non-public-address'],
    ['guide://loc%E2%80%8Calhost/x', 'uri.non-public-address'],
    ['guide://\u200dlocalhost/x', 'uri.non-public-address'],
    ['guide://127\u200d.0.0.1/x', 'uri.non-public-address'],
    ['guide://metadata\u200c/x', 'uri.non-public-address'],
    // zero-padded IPv4 parts: octal to WHATWG, decimal to Java and Go < 1.17 (CVE-2021-29923)
    ['http://010.0.0.1/', 'uri.non-public-address'],
    ['http://0127.0.0.1/', 'uri.non-public-address'],
    ['https://0100.0100.0100.0200/', 'uri.non-public-address'],
    ['http://0127.1/', 'uri.non-public-address'],
    ['http://02130706433/', 'uri.non-public-address'],
    ['http://%30127.0.0.1/', 'uri.non-public-address'],
    ['http://０１２７.0.0.1/', 'uri.non-public-address'],
    ['guide://0127.0.0.1/x', 'uri.non-public-address'],
    ['guide://010.0.0.1/x', 'uri.non-public-address'],
    // ASCII-only punycode: `xn--localhost-` decodes to `localhost`
    ['http://a.xn--localhost-/', 'uri.non-public-address'],
    ['https://xn--localhost-.xn--localhost-/', 'uri.non-public-address'],
    ['guide://xn--localhost-/x', 'uri.non-public-address'],
    ['guide://a.xn--localhost-/x', 'uri.non-public-address'],
    // ISATAP interface ids embed an IPv4 under a global prefix (RFC 5214)
    ['http://[2001:4860::5efe:7f00:1]/', 'uri.non-public-address'],
    ['http://[2606:4700::5efe:a00:1]/', 'uri.non-public-address'],
    ['http://[2606:4700::200:5efe:a9fe:a9fe]/', 'uri.non-public-address'],
    ['http://[2606:4700::200:5efe:169.254.169.254]/', 'uri.non-public-address'],
    ['guide://[2001:4860::5efe:7f00:1]/x', 'uri.non-public-address'],
    // local ipc sockets and feed wrappers are not opaque custom schemes
    ['http+unix://%2Fvar%2Frun%2Fdocker.sock/info', 'uri.scheme-not-allowed'],
    ['unix:///var/run/docker.sock', 'uri.scheme-not-allowed'],
    ['npipe:////./pipe/docker_engine', 'uri.scheme-not-allowed'],
    ['feed:http://127.0.0.1/', 'uri.scheme-not-allowed'],
    ['FEED://127.0.0.1/', 'uri.scheme-not-allowed'],
    ['pcast://127.0.0.1/', 'uri.scheme-not-allowed'],
  ])('%j is denied with %s', expectDeniedEverywhere);
});

describe('probes that held: ipv4 encodings', () => {
  it.each<DenyRow>([
    ['http://0/', 'uri.non-public-address'],
    ['http://0.0.0.0/', 'uri.non-public-address'],
    ['http://127.1/', 'uri.non-public-address'],
    ['http://2130706433/', 'uri.non-public-address'],
    ['http://017700000001/', 'uri.non-public-address'],
    ['http://0x7f.0.0.1/', 'uri.non-public-address'],
    ['http://0x7f.1/', 'uri.non-public-address'],
    ['http://0X7F.0x0.0.01/', 'uri.non-public-address'],
    ['http://0177.0.0.01/', 'uri.non-public-address'],
    ['http://0xa9fea9fe/', 'uri.non-public-address'],
    ['http://169.254.43518/', 'uri.non-public-address'],
    ['http://127.000000000000000000001/', 'uri.non-public-address'],
    ['http://127.0.0.1./', 'uri.non-public-address'],
    ['http://127.0.0.1../', 'uri.non-public-address'],
    ['http://256.0.0.1/', 'uri.invalid'],
    ['http://4294967296/', 'uri.invalid'],
    ['http://1.2.3.4.5/', 'uri.invalid'],
    ['http://foo.0x/', 'uri.invalid'],
    ['http://0x/', 'uri.non-public-address'],
    ['http://０x７ｆ.1/', 'uri.non-public-address'],
    ['http://①②⑦.0.0.1/', 'uri.non-public-address'],
    ['http://127。0。0。1/', 'uri.non-public-address'],
    ['http://127．0．0．1/', 'uri.non-public-address'],
    ['http://127｡0｡0｡1/', 'uri.non-public-address'],
    ['http://127%E3%80%820%E3%80%820%E3%80%821/', 'uri.non-public-address'],
    ['http://%31%32%37%2e%30%2e%30%2e%31/', 'uri.non-public-address'],
    ['http://100.100.100.200/', 'uri.non-public-address'],
    ['http://168.63.129.16/', 'uri.non-public-address'],
    ['http://192.0.0.192/', 'uri.non-public-address'],
    ['guide://127.1/x', 'uri.non-public-address'],
    ['guide://0/x', 'uri.non-public-address'],
    ['guide://2130706433/x', 'uri.non-public-address'],
    ['guide://017700000001/x', 'uri.non-public-address'],
    ['guide://0x7f.0.0.1/x', 'uri.non-public-address'],
    ['guide://%31%32%37.0.0.1/x', 'uri.non-public-address'],
    ['guide://127%2e0%2e0%2e1/x', 'uri.non-public-address'],
    ['guide://１２７.０.０.１/x', 'uri.non-public-address'],
    ['guide://127。0。0。1/x', 'uri.non-public-address'],
    ['guide://169.254.169.254:80/x', 'uri.non-public-address'],
    ['guide://0x00000000000007f.1/x', 'uri.non-public-address'],
    ['x-y.z+w://127.0.0.1/', 'uri.non-public-address'],
  ])('%j is denied with %s', expectDeniedEverywhere);
});

describe('probes that held: ipv6 and embedded ipv4', () => {
  it.each<DenyRow>([
    ['http://[::1]/', 'uri.non-public-address'],
    ['http://[0000:0000:0000:0000:0000:0000:0000:0001]/', 'uri.non-public-address'],
    ['http://[::]/', 'uri.non-public-address'],
    ['http://[::ffff:127.0.0.1]/', 'uri.non-public-address'],
    ['http://[::FFFF:7f00:1]/', 'uri.non-public-address'],
    ['http://[::127.0.0.1]/', 'uri.non-public-address'],
    ['http://[::8.8.8.8]/', 'uri.non-public-address'],
    ['http://[::ffff:0:7f00:1]/', 'uri.non-public-address'],
    ['http://[64:ff9b::7f00:1]/', 'uri.non-public-address'],
    ['http://[64:ff9b::169.254.169.254]/', 'uri.non-public-address'],
    ['http://[64:ff9b:1::808:808]/', 'uri.non-public-address'],
    ['http://[64:ff9b:1:abcd::7f00:1]/', 'uri.non-public-address'],
    ['http://[2002:7f00:1::]/', 'uri.non-public-address'],
    ['http://[2002:a9fe:a9fe::1]/', 'uri.non-public-address'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 obfuscated (xor ffff:ffff) as 80ff:fffe
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'uri.non-public-address'],
    ['http://[2001::1]/', 'uri.non-public-address'],
    ['http://[fe80::5efe:7f00:1]/', 'uri.non-public-address'],
    ['http://[fe80::5efe:808:808]/', 'uri.non-public-address'],
    ['http://[::5efe:808:808]/', 'uri.non-public-address'],
    ['http://[fec0::1]/', 'uri.non-public-address'],
    ['http://[fc00::1]/', 'uri.non-public-address'],
    ['http://[fd00:ec2::254]/', 'uri.non-public-address'],
    ['http://[fd00:0ec2:0000:0000:0000:0000:0000:0254]/', 'uri.non-public-address'],
    ['http://[ff02::1]/', 'uri.non-public-address'],
    ['http://[100::1]/', 'uri.non-public-address'],
    ['http://[2001:db8::1]/', 'uri.non-public-address'],
    ['http://[4000::1]/', 'uri.non-public-address'],
    ['http://[fe80::1%25eth0]/', 'uri.invalid'],
    ['http://[fe80::1%eth0]/', 'uri.invalid'],
    ['http://fd00:ec2::254/', 'uri.invalid'],
    ['guide://[fe80::1%25eth0]/x', 'uri.invalid'],
    ['guide://[::ffff:a9fe:a9fe]/x', 'uri.non-public-address'],
    ['guide://[64:ff9b::a9fe:a9fe]/x', 'uri.non-public-address'],
  ])('%j is denied with %s', expectDeniedEverywhere);
});

describe('probes that held: names', () => {
  it.each<DenyRow>([
    ['http://localhost/', 'uri.non-public-address'],
    ['http://LOCALHOST/', 'uri.non-public-address'],
    ['http://localhost./', 'uri.non-public-address'],
    ['http://localhost../', 'uri.non-public-address'],
    ['http://.localhost/', 'uri.non-public-address'],
    ['http://A.LOCALHOST./', 'uri.non-public-address'],
    ['http://xn--localhost-/', 'uri.non-public-address'],
    ['http://ｌｏｃａｌｈｏｓｔ/', 'uri.non-public-address'],
    ['http://ＬＯＣＡＬＨＯＳＴ/', 'uri.non-public-address'],
    ['http://localhost。/', 'uri.non-public-address'],
    ['http://loc\u00adalhost/', 'uri.non-public-address'],
    ['http://loc\u200balhost/', 'uri.non-public-address'],
    ['http://loc\u2060alhost/', 'uri.non-public-address'],
    ['http://loc\ufeffalhost/', 'uri.non-public-address'],
    ['http://localhoſt/', 'uri.non-public-address'],
    ['http://loc\u200dalhost/', 'uri.invalid'],
    ['http://%6c%6f%63%61%6c%68%6f%73%74/', 'uri.non-public-address'],
    ['http://metadata.google.internal./', 'uri.non-public-address'],
    ['http://METADATA.GOOGLE.INTERNAL/', 'uri.non-public-address'],
    ['http://metadata.google.internal../', 'uri.non-public-address'],
    ['http://ᵐetadata.google.internal/', 'uri.non-public-address'],
    ['http://metadata/', 'uri.non-public-address'],
    ['http://metadata.goog./', 'uri.non-public-address'],
    ['http://instance-data./', 'uri.non-public-address'],
    ['http://kubernetes.default.svc/', 'uri.non-public-address'],
    ['http://foo.internal./', 'uri.non-public-address'],
    ['http://foo.local/', 'uri.non-public-address'],
    ['http://foo.HOME.ARPA./', 'uri.non-public-address'],
    ['http://127.0.0.1.nip.io./', 'uri.non-public-address'],
    ['http://7f000001.nip.io/', 'uri.non-public-address'],
    ['http://app.localtest.me./', 'uri.non-public-address'],
    ['guide://localhost/x', 'uri.non-public-address'],
    ['guide://LOCALHOST。/x', 'uri.non-public-address'],
    ['guide://loc\u00adalhost/x', 'uri.non-public-address'],
    ['guide://ｌｏｃａｌｈｏｓｔ/x', 'uri.non-public-address'],
    ['guide://%6c%6f%63%61%6c%68%6f%73%74/x', 'uri.non-public-address'],
    ['guide://METADATA%2eGOOGLE%2eINTERNAL/x', 'uri.non-public-address'],
    ['guide://metadata.google.internal./x', 'uri.non-public-address'],
    ['guide://a.localhost/x', 'uri.non-public-address'],
    ['guide://foo.home.arpa/x', 'uri.non-public-address'],
  ])('%j is denied with %s', expectDeniedEverywhere);
});

describe('probes that held: parser confusion and schemes', () => {
  it.each<DenyRow>([
    ['http://evil.com\\@127.0.0.1/', 'uri.parser-confusion'],
    ['http://127.0.0.1\\@evil.com/', 'uri.non-public-address'],
    ['http://evil.com#@127.0.0.1/', 'uri.parser-confusion'],
    ['http://evil.com?@127.0.0.1/', 'uri.parser-confusion'],
    ['http://evil.com%23@127.0.0.1/', 'uri.userinfo'],
    ['http://127.0.0.1%3A80@evil.com/', 'uri.userinfo'],
    ['http://a.com%40127.0.0.1/', 'uri.invalid'],
    ['http://127.0.0.1%3a80/', 'uri.invalid'],
    ['http://127.0.0.1\t/', 'uri.invalid'],
    ['http://127.0.0.1\n.evil.com/', 'uri.invalid'],
    ['http://evil.com\t@127.0.0.1/', 'uri.invalid'],
    ['http:\\\\127.0.0.1/', 'uri.parser-confusion'],
    ['http:/127.0.0.1/', 'uri.parser-confusion'],
    ['http:127.0.0.1/', 'uri.parser-confusion'],
    ['http:///127.0.0.1/', 'uri.parser-confusion'],
    ['hTtP://127.0.0.1/', 'uri.non-public-address'],
    ['http://127.0.0.1/\u0000', 'uri.invalid'],
    [' http://127.0.0.1/', 'uri.invalid'],
    ['\u0000http://127.0.0.1/', 'uri.invalid'],
    ['\u001fhttp://127.0.0.1/', 'uri.invalid'],
    ['\thttp://127.0.0.1/', 'uri.invalid'],
    ['ht\ttp://127.0.0.1/', 'uri.invalid'],
    ['guide://127.0.0.1#@evil/x', 'uri.parser-confusion'],
    ['guide://\t127.0.0.1/x', 'uri.invalid'],
    ['guide://loc\nalhost/x', 'uri.invalid'],
    ['guide://example.com\\@127.0.0.1/x', 'uri.userinfo'],
    ['guide://user@127.0.0.1/x', 'uri.userinfo'],
    ['jAvAsCrIpT:alert(1)', 'uri.scheme-not-allowed'],
    ['javascript://%0aalert(1)', 'uri.scheme-not-allowed'],
    ['java\tscript:alert(1)', 'uri.invalid'],
    ['java\nscript:alert(1)', 'uri.invalid'],
    [' javascript:alert(1)', 'uri.invalid'],
    ['\u0001javascript:alert(1)', 'uri.invalid'],
    ['javascript\u0000:alert(1)', 'uri.invalid'],
    ['java&#x09;script:alert(1)', 'uri.invalid'],
    ['data:text/html,<script>alert(1)</script>', 'uri.scheme-not-allowed'],
    ['DATA:text/html;base64,PHNjcmlwdD4=', 'uri.scheme-not-allowed'],
    ['dAtA:,x', 'uri.scheme-not-allowed'],
    [' data:,x', 'uri.invalid'],
    ['vbscript:msgbox', 'uri.scheme-not-allowed'],
    ['blob:https://example.com/uuid', 'uri.scheme-not-allowed'],
    ['view-source:http://127.0.0.1/', 'uri.scheme-not-allowed'],
    ['jar:http://127.0.0.1!/', 'uri.scheme-not-allowed'],
    ['file://localhost/etc/passwd', 'uri.scheme-not-allowed'],
    ['FILE:///etc/passwd', 'uri.scheme-not-allowed'],
    ['Gopher://example.com/', 'uri.scheme-not-allowed'],
    ['ftp://example.com/', 'uri.scheme-not-allowed'],
    ['netdoc:///etc/passwd', 'uri.scheme-not-allowed'],
  ])('%j is denied with %s', expectDeniedEverywhere);
});

describe('websocket schemes: allowed by web-public only, and only to public hosts', () => {
  it.each([
    ['ws://127.0.0.1/', 'deny', 'deny'],
    ['wss://[::1]/', 'deny', 'deny'],
    ['WSS://0127.0.0.1/', 'deny', 'deny'],
    ['wss://example.com/', 'deny', 'allow'],
  ] as const)('%j: default %s, web-public %s', (uri, onDefault, onWebPublic) => {
    const [[, defaultGate], [, webGate]] = gates as [readonly [string, Gate], readonly [string, Gate]];
    expect(decide(defaultGate, uri).effect).toBe(onDefault);
    expect(decide(webGate, uri).effect).toBe(onWebPublic);
  });
});

describe('public destinations stay allowed (no over-blocking)', () => {
  it.each([
    'https://example.com/',
    'https://EXAMPLE.com./',
    'https://bücher.de/',
    'https://xn--bcher-kva.de/',
    'https://xn--google-.com/',
    'http://8.8.8.8/',
    'http://0x08080808/',
    'http://0100.1.1.1/',
    'http://1.2.3.010/',
    'http://1.1.1.1.nip.io/',
    'http://evil.com/@127.0.0.1',
    'http://[2606:4700:4700::1111]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::808:808]/',
    'http://[2002:808:808::1]/',
    'http://[2001:4860::200:5efe:808:808]/',
    'guide://manuals/packing',
    'guide://v1.2/x',
    'guide://team_a/x',
    'guide:///127.0.0.1/x',
    'urn:isbn:0451450523',
    'notes://team/2024/retro',
    's3://bucket/key',
  ])('%j is allowed', (uri) => {
    for (const [file, gate] of gates) expect(decide(gate, uri), file).toMatchObject({ effect: 'allow', reasons: [] });
  });
});

describe('the readings behind the fixes', () => {
  it.each([
    ['http://010.0.0.1/', { kind: 'ipv4', text: '8.0.0.1' }, [{ kind: 'ipv4', text: '10.0.0.1' }]],
    ['http://0127.1/', { kind: 'ipv4', text: '87.0.0.1' }, [{ kind: 'ipv4', text: '127.0.0.1' }]],
    ['http://0177.0.0.1/', { kind: 'ipv4', text: '127.0.0.1' }, [{ kind: 'ipv4', text: '177.0.0.1' }]],
    ['http://0x7f.010.0.1/', { kind: 'ipv4', text: '127.8.0.1' }, []],
    ['http://127.0.0.1/', { kind: 'ipv4', text: '127.0.0.1' }, []],
    ['http://a.xn--localhost-/', { kind: 'name', text: 'a.xn--localhost-' }, [{ kind: 'name', text: 'a.localhost' }]],
    ['guide://127.0.0.1../x', { kind: 'name', text: '127.0.0.1..' }, [{ kind: 'ipv4', text: '127.0.0.1' }]],
    ['guide://manuals/x', { kind: 'name', text: 'manuals' }, []],
  ] as const)('%j', (uri, host, otherHosts) => {
    const parsed = parseUri(uri);
    expect(parsed).toMatchObject({ ok: true, host, otherHosts });
  });

  it.each([
    ['2001:4860::5efe:7f00:1', 'loopback', false],
    ['2001:4860::200:5efe:a9fe:a9fe', 'cloud-metadata', false],
    ['2001:4860::100:5efe:a00:1', 'private', false],
    ['fe80::5efe:808:808', 'link-local', false],
    ['2001:4860::200:5efe:808:808', 'public', true],
    ['2001:4860::5eff:7f00:1', 'public', true],
  ] as const)('isatap %s is %s', (address, cls, isPublic) => {
    expect(classifyAddress(address)).toMatchObject({ class: cls, public: isPublic });
  });
});

describe('web-public with resolution: every answer must be public', () => {
  // a fixed map in place of DNS: tests never touch the network
  const answers = new Map<string, readonly string[]>([
    ['rebind.example.com', ['93.184.215.14', '127.0.0.1']],
    ['mapped.example.com', ['::ffff:127.0.0.1']],
    ['zero.example.com', ['0.0.0.0']],
    ['isatap.example.com', ['2001:4860::5efe:a9fe:a9fe']],
    ['nat64.example.com', ['64:ff9b::a00:1']],
    ['zone.example.com', ['fe80::1%eth0']],
    ['short.example.com', ['127.1']],
    ['padded.example.com', ['010.0.0.1']],
    ['text.example.com', ['localhost']],
    ['empty.example.com', []],
    ['public.example.com', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']],
  ]);
  let webGate: Gate;

  beforeAll(async () => {
    const policy = await loadPolicy(path.join(repoRoot, 'policies/web-public.yaml'));
    webGate = createGate(policy, {
      resolve: async (name) => {
        const found = answers.get(name);
        if (found === undefined) throw new Error(`\`${name}\` does not resolve`);
        return found;
      },
    });
  });

  it.each([
    ['rebind.example.com', 'deny', 'uri.non-public-address'],
    ['mapped.example.com', 'deny', 'uri.non-public-address'],
    ['zero.example.com', 'deny', 'uri.non-public-address'],
    ['isatap.example.com', 'deny', 'uri.non-public-address'],
    ['nat64.example.com', 'deny', 'uri.non-public-address'],
    ['zone.example.com', 'deny', 'uri.non-public-address'],
    ['short.example.com', 'deny', 'uri.non-public-address'],
    ['padded.example.com', 'deny', 'uri.non-public-address'],
    ['text.example.com', 'deny', 'uri.non-public-address'],
    ['empty.example.com', 'deny', 'uri.unresolved'],
    ['missing.example.com', 'deny', 'uri.unresolved'],
    ['public.example.com', 'allow', null],
  ] as const)('%s: %s', async (name, effect, code) => {
    const decision = await webGate.decide({
      stage: 'link',
      server: 'default',
      link: { type: 'resource_link', uri: `https://${name}/x`, name: 'probe' },
    });
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(code === null ? [] : [code]);
  });
});
