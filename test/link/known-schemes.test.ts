import { describe, expect, it } from 'vitest';
import {
  isKnownNonCustomScheme,
  isSpecialScheme,
  neverAllowedSchemes,
  schemeFacts,
  specialSchemeDefaultPorts,
} from '../../src/link/known-schemes.ts';

describe('known schemes', () => {
  it.each([
    'file',
    'data',
    'javascript',
    'vbscript',
    'blob',
    'about',
    'filesystem',
    'gopher',
    'dict',
    'ldap',
    'ldaps',
    'tftp',
    'sftp',
    'ftp',
    'ftps',
    'jar',
    'netdoc',
    'smb',
    'telnet',
    'ssh',
    'mailto',
    'view-source',
    'chrome',
    'http',
    'https',
    'unix',
    'http+unix',
    'npipe',
    'feed',
    'gophers',
    'smbs',
    'ldap+tls',
    'imaps',
    'redis+tls',
    'git+ssh',
    'socks5h',
    'pop3s',
    'wsss',
  ])('%s is never custom', (scheme) => {
    expect(isKnownNonCustomScheme(scheme)).toBe(true);
  });

  it.each(['guide', 'demo', 'notes', 'urn', 'h'])('%s may be custom', (scheme) => {
    expect(isKnownNonCustomScheme(scheme)).toBe(false);
  });

  it.each([
    ['http', true],
    ['wss', true],
    ['file', true],
    ['gopher', false],
    ['guide', false],
  ])('%s special: %s', (scheme, special) => {
    expect(isSpecialScheme(scheme)).toBe(special);
  });
});

describe('schemeFacts', () => {
  it.each(['http', 'https', 'ws', 'file', 'ftp', 'guide', 'git+ssh', 'javascript', 'data', 'urn', 'ldaps', 'x'])(
    '%s: the same facts as the functions and sets it stands for, the first time and the next',
    (scheme) => {
      const want = {
        defaultPort: specialSchemeDefaultPorts.get(scheme),
        knownNonCustom: isKnownNonCustomScheme(scheme),
        neverAllowed: neverAllowedSchemes.has(scheme),
      };
      expect(schemeFacts(scheme)).toEqual(want);
      expect(schemeFacts(scheme)).toEqual(want);
    },
  );
});
