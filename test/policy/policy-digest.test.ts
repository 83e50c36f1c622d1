import { describe, expect, test } from 'vitest';
import { parsePolicy } from '../../src/policy/load-policy.ts';

const block = `# yaml-language-server: $schema=../schemas/policy.schema.json
id: sample
version: 1.0.0
review:
  reviewers: [sec]
  date: 2026-01-10
  ticket: LG-1
  expires: 2026-07-10
links:
  schemes: [https, http]
  customSchemes: allow
  requireSameServer: true
  denyNonPublicAddresses: true
  maxDeclaredBytes: 1024
credentials:
  forward: same-origin
read:
  readTimeoutMs: 1000
  maxBytes: 4096
  maxItems: 8
content:
  allow: [text/plain, image/png]
rules:
  - id: no-exe
    stage: read
    effect: deny
    message: executable kind
    when: {some: [{var: kinds}, {"==": [{var: ""}, exe]}]}
`;

// the same policy: other key order, flow style, quoting, comments, number spellings
const reformatted = `# reformatted
content: {allow: ["text/plain", 'image/png']}
rules:
  - when:
      some:
        - var: kinds # the real kinds
        - "==":
            - var: ""
            - "exe"
    message: "executable kind"
    effect: deny
    stage: read
    id: no-exe
read: {maxItems: 0x8, maxBytes: 4096, readTimeoutMs: +1000}
credentials: {forward: same-origin}
links:
  maxDeclaredBytes: 1024.0
  denyNonPublicAddresses: true
  requireSameServer: true
  customSchemes: "allow"
  schemes:
    - https
    - http
review: {expires: "2026-07-10", ticket: LG-1, date: 2026-01-10, reviewers: [sec]}
version: "1.0.0"
id: sample
`;

const digest = (text: string): string => parsePolicy(text, 'sample.yaml').ref.digest;

describe('policy digest', () => {
  test('is sha256 of the canonical form', () => {
    expect(digest(block)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test('ignores layout: comments, key order, flow or block, quoting, number spelling', () => {
    expect(digest(reformatted)).toBe(digest(block));
  });

  test('does not depend on the file name', () => {
    expect(parsePolicy(block, 'a.yaml').ref.digest).toBe(parsePolicy(block, 'b/c.yaml').ref.digest);
  });

  test.each([
    ['a limit', ['maxItems: 8', 'maxItems: 9']],
    ['a scheme list', ['schemes: [https, http]', 'schemes: [https]']],
    ['list order', ['schemes: [https, http]', 'schemes: [http, https]']],
    ['a rule effect', ['effect: deny', 'effect: partial']],
    ['a rule literal', ['exe]}]}', 'elf]}]}']],
    ['an optional field added', ['  maxItems: 8\n', '  maxItems: 8\n  overCap: deny\n']],
    ['the description', ['id: sample\n', 'id: sample\ndescription: a sample\n']],
  ])('changes with the meaning: %s', (_name, [from, to]) => {
    const changed = block.replace(from as string, to as string);
    expect(changed).not.toBe(block);
    expect(digest(changed)).not.toBe(digest(block));
  });
});
