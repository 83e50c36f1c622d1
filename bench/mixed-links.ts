// A generated mixed link workload (issue 15): every shape a tool result may carry, in even shares, drawn from a
// seeded generator so every run times the same inputs.

/** A small seeded generator (mulberry32): the same seed gives the same sequence in every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Draw = (random: () => number, i: number) => string;

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const int = (random: () => number, below: number): number => Math.floor(random() * below);
const letters = 'abcdefghijklmnopqrstuvwxyz';
const label = (random: () => number): string =>
  Array.from({ length: 3 + int(random, 8) }, () => letters[int(random, letters.length)]).join('');
const hextet = (random: () => number): string => int(random, 0x10000).toString(16);
const path = (random: () => number, i: number): string =>
  pick(random, [`/${label(random)}/${i}`, `/docs/${label(random)}.md?v=${i}`, `/a/b/${i}.png#top`, '/']);
const port = (random: () => number): string => pick(random, ['', '', ':8080', ':443', ':3000']);

/** One generator per shape of issue 15's mixed workload, in the order they are drawn round-robin. */
const shapes: readonly Draw[] = [
  // http, https and ws(s) over names
  (r, i) => `https://${label(r)}.${pick(r, ['com', 'org', 'net', 'io', 'de', 'co.uk'])}${path(r, i)}`,
  (r, i) =>
    `http://${pick(r, ['www.', 'api.', ''])}${label(r)}.${pick(r, ['com', 'net', 'dev'])}${port(r)}${path(r, i)}`,
  (r, i) => `${pick(r, ['ws', 'wss'])}://${label(r)}.example.net${port(r)}/socket/${i}`,
  // dotted IPv4: any address, then the private ranges
  (r, i) => `http://${int(r, 224)}.${int(r, 256)}.${int(r, 256)}.${int(r, 256)}${port(r)}${path(r, i)}`,
  (r) =>
    pick(r, [
      `http://10.${int(r, 256)}.${int(r, 256)}.${int(r, 256)}/`,
      `http://192.168.${int(r, 256)}.${int(r, 256)}:8080/`,
      `http://172.${16 + int(r, 16)}.${int(r, 256)}.${int(r, 256)}/admin`,
    ]),
  // dotless IPv4: one decimal number, hex, octal and short forms
  (r) => `http://${int(r, 0xffffffff)}/`,
  (r) => `http://0x${int(r, 0xffffffff).toString(16)}/`,
  (r) => `http://${pick(r, ['0177.0.0.1', '0x7f.1', '127.1', '0', '017700000001'])}/`,
  // bracketed IPv6: public, loopback, mapped, link-local
  (r, i) => `https://[2606:4700:${hextet(r)}::${hextet(r)}]${port(r)}${path(r, i)}`,
  (r) =>
    `http://[${pick(r, ['::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', `fe80::${hextet(r)}`, `::ffff:${int(r, 256)}.1.2.3`])}]/`,
  // localhost spellings
  (r, i) => `http://${pick(r, ['localhost', 'LOCALHOST.', 'app.localhost', 'localhost.localdomain'])}${port(r)}/${i}`,
  // cloud metadata by address and by name
  (r) =>
    pick(r, [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.100.100.200/latest/meta-data/',
    ]),
  // custom schemes only their server resolves
  (r, i) => pick(r, [`guide://manuals/${label(r)}`, `notes://team/${i}/retro`, `urn:isbn:${1000000000 + i}`]),
  // script and local files
  (r, i) => pick(r, [`javascript:alert(${i})`, 'JavaScript:void(0)', `javascript://%0aalert(${i})`]),
  (r) => `file://${pick(r, ['', 'localhost'])}/home/${label(r)}/.ssh/id_rsa`,
];

/** `n` mixed link-stage lines, the shapes round-robin, drawn from `seed`. */
export function mixedLinkWorkload(n: number, seed = 15): unknown[] {
  const random = seededRandom(seed);
  const out: unknown[] = [];
  for (let i = 0; i < n; i += 1) {
    const uri = (shapes[i % shapes.length] as Draw)(random, i);
    out.push({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: `m${i}` } });
  }
  return out;
}
