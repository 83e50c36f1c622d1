/** Default port of each WHATWG special scheme; `file` has none (null). */
export const specialSchemeDefaultPorts: ReadonlyMap<string, number | null> = new Map<string, number | null>([
  ['http', 80],
  ['https', 443],
  ['ws', 80],
  ['wss', 443],
  ['ftp', 21],
  ['file', null],
]);

/** True for the WHATWG special schemes (parsed with the URL Standard's host rules). */
export function isSpecialScheme(scheme: string): boolean {
  return specialSchemeDefaultPorts.has(scheme);
}

/**
 * Schemes that are never "custom": local access, script, browser-internal and protocol-smuggling schemes
 * (lower-case, no `:`). A link using one is allowed only when the policy lists it in `links.schemes`;
 * `customSchemes: allow` never admits them.
 */
export const knownNonCustomSchemes: ReadonlySet<string> = new Set([
  // WHATWG special schemes
  'http', 'https', 'ws', 'wss', 'ftp', 'file',
  // inline content and script (XSS, local data)
  'data', 'javascript', 'vbscript', 'livescript', 'blob', 'about', 'filesystem', 'view-source', 'mhtml', 'wyciwyg',
  // protocol smuggling through curl/Java/PHP handlers (Orange Tsai 2017, PayloadsAllTheThings SSRF)
  'gopher', 'dict', 'ldap', 'ldaps', 'ldapi', 'tftp', 'sftp', 'ftps', 'scp', 'ssh', 'telnet', 'smb', 'cifs', 'nfs',
  'jar', 'netdoc', 'rmi', 'jndi', 'iiop', 'corba', 'imap', 'imaps', 'pop3', 'pop3s', 'smtp', 'smtps',
  'rtsp', 'rtmp', 'mqtt', 'mqtts', 'redis', 'rediss', 'memcached', 'mongodb', 'mysql', 'postgres', 'postgresql', 'jdbc',
  'news', 'nntp', 'snews', 'irc', 'ircs', 'xmpp', 'sip', 'sips',
  // PHP stream wrappers
  'php', 'phar', 'expect', 'glob', 'zip', 'compress.zlib', 'compress.bzip2', 'ssh2', 'rar', 'ogg', 'zlib',
  // browser-internal and OS handlers
  'chrome', 'chrome-extension', 'chrome-untrusted', 'chrome-devtools', 'devtools', 'edge', 'opera', 'brave',
  'moz-extension', 'moz-icon', 'resource', 'safari-extension', 'ms-browser-extension', 'ms-appx', 'ms-appx-web',
  'ms-appdata', 'ms-settings', 'ms-msdt', 'search-ms', 'res', 'its', 'ms-its', 'mk', 'hcp', 'shell', 'intent',
  'android-app', 'content', 'x-apple-data-detectors', 'vnd.ms.radio',
  // local ipc sockets, local access like `file:` (`http+unix://%2Fvar%2Frun%2Fdocker.sock/…` reaches the docker api)
  'unix', 'http+unix', 'https+unix', 'ws+unix', 'npipe',
  // feed readers fetch the wrapped url (`feed:http://127.0.0.1/`)
  'feed', 'pcast', 'itpc',
  // messaging handlers: not fetchable documents
  'mailto', 'tel', 'sms', 'callto', 'facetime',
]);

/** True when `scheme` (lower-case) can never count as an opaque custom scheme. */
export function isKnownNonCustomScheme(scheme: string): boolean {
  return knownNonCustomSchemes.has(scheme);
}
