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
  'http',
  'https',
  'ws',
  'wss',
  'ftp',
  'file',
  // inline content and script (XSS, local data)
  'data',
  'javascript',
  'vbscript',
  'livescript',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'mhtml',
  'wyciwyg',
  // protocol smuggling through curl/Java/PHP handlers (Orange Tsai 2017, PayloadsAllTheThings SSRF)
  'gopher',
  'dict',
  'ldap',
  'ldaps',
  'ldapi',
  'tftp',
  'sftp',
  'ftps',
  'scp',
  'ssh',
  'telnet',
  'smb',
  'cifs',
  'nfs',
  'jar',
  'netdoc',
  'rmi',
  'jndi',
  'iiop',
  'corba',
  'imap',
  'imaps',
  'pop3',
  'pop3s',
  'smtp',
  'smtps',
  'rtsp',
  'rtmp',
  'mqtt',
  'mqtts',
  'redis',
  'rediss',
  'memcached',
  'mongodb',
  'mysql',
  'postgres',
  'postgresql',
  'jdbc',
  'news',
  'nntp',
  'snews',
  'irc',
  'ircs',
  'xmpp',
  'sip',
  'sips',
  // PHP stream wrappers
  'php',
  'phar',
  'expect',
  'glob',
  'zip',
  'compress.zlib',
  'compress.bzip2',
  'ssh2',
  'rar',
  'ogg',
  'zlib',
  // browser-internal and OS handlers
  'chrome',
  'chrome-extension',
  'chrome-untrusted',
  'chrome-devtools',
  'devtools',
  'edge',
  'opera',
  'brave',
  'moz-extension',
  'moz-icon',
  'resource',
  'safari-extension',
  'ms-browser-extension',
  'ms-appx',
  'ms-appx-web',
  'ms-appdata',
  'ms-settings',
  'ms-msdt',
  'search-ms',
  'res',
  'its',
  'ms-its',
  'mk',
  'hcp',
  'shell',
  'intent',
  'android-app',
  'content',
  'x-apple-data-detectors',
  'vnd.ms.radio',
  // local ipc sockets, local access like `file:` (`http+unix://%2Fvar%2Frun%2Fdocker.sock/…` reaches the docker api)
  'unix',
  'http+unix',
  'https+unix',
  'ws+unix',
  'npipe',
  // feed readers fetch the wrapped url (`feed:http://127.0.0.1/`)
  'feed',
  'pcast',
  'itpc',
  // messaging handlers: not fetchable documents
  'mailto',
  'tel',
  'sms',
  'callto',
  'facetime',
]);

/**
 * Network protocols that connect to the host an authority names (IANA uri schemes, database and message-queue
 * urls, transports), without their TLS variants: `namesNetworkProtocol` also knows `gophers`, `smbs`,
 * `ldap+tls`, `redis+tls` and the like from these.
 */
export const networkProtocols: ReadonlySet<string> = new Set([
  // web, file transfer and remote shells
  'http',
  'https',
  'ws',
  'ftp',
  'tftp',
  'sftp',
  'scp',
  'rsync',
  'ssh',
  'telnet',
  'tn3270',
  'rlogin',
  'vnc',
  'rdp',
  'spice',
  'x11',
  // directory, file sharing and printing
  'gopher',
  'dict',
  'whois',
  'finger',
  'wais',
  'prospero',
  'ldap',
  'smb',
  'cifs',
  'nfs',
  'afp',
  'dav',
  'webdav',
  'iscsi',
  'ipp',
  'lpd',
  // mail, news, chat, voice and streaming
  'imap',
  'pop',
  'smtp',
  'lmtp',
  'nntp',
  'news',
  'irc',
  'xmpp',
  'sip',
  'rtsp',
  'rtspu',
  'rtmp',
  'rtmfp',
  'rtp',
  'mms',
  'stun',
  'turn',
  // messaging, rpc and service discovery
  'mqtt',
  'amqp',
  'stomp',
  'coap',
  'nats',
  'kafka',
  'grpc',
  'thrift',
  'zmq',
  'rmi',
  'jndi',
  'iiop',
  'corba',
  'netdoc',
  'dns',
  'ntp',
  'snmp',
  'syslog',
  'radius',
  'kerberos',
  'krb',
  // databases and caches
  'redis',
  'memcache',
  'memcached',
  'mongodb',
  'mysql',
  'mysqlx',
  'mariadb',
  'postgres',
  'postgresql',
  'mssql',
  'sqlserver',
  'jdbc',
  'odbc',
  'cassandra',
  'couchbase',
  'couchdb',
  'clickhouse',
  'neo4j',
  'bolt',
  'rethinkdb',
  'zookeeper',
  'etcd',
  'consul',
  // version control
  'git',
  'svn',
  'cvs',
  // transports and proxies
  'tcp',
  'udp',
  'tls',
  'ssl',
  'dtls',
  'quic',
  'sctp',
  'socks',
  'socks4a',
  'socks5h',
  'unix',
  'npipe',
]);

// what protocol names carry to say "over TLS" or a version: `gophers`, `ldaptls`, `pop3`, `socks5`, `irc6`
const variantSuffixes: readonly string[] = ['secure', 'tls', 'ssl', 'sec', 's'];

// `name` without the digits it ends with (a version number), read back one character at a time: `/\d+$/` retries
// its run of digits from every digit, quadratic on a long one
function withoutTrailingDigits(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) >= 0x30 && name.charCodeAt(end - 1) <= 0x39) end--;
  return name.slice(0, end);
}

/**
 * True when `scheme` (lower-case) names a network protocol: one of its layers (split at `+`, as in `git+ssh`,
 * `coap+tcp`, `http+unix`) is a protocol of `networkProtocols`, possibly followed by a version number and a TLS
 * suffix (`s`, `tls`, `ssl`, `sec`, `secure`). Such a scheme reaches a host, so it is never a custom scheme.
 * A name that merely contains a protocol word (`http-demo`, `ms-settings`) is not split: it may be custom.
 */
export function namesNetworkProtocol(scheme: string): boolean {
  for (const part of scheme.split(schemeSeparators)) {
    if (part === '') continue;
    if (protocolVariant(part)) return true;
  }
  return false;
}

const schemeSeparators = '+';

// strips TLS suffixes and version numbers one at a time (`wsss`, `ldap3s`, `pop3s`) until a protocol is left
function protocolVariant(part: string): boolean {
  let rest = part;
  for (;;) {
    if (networkProtocols.has(rest) || networkProtocols.has(withoutTrailingDigits(rest))) return true;
    const suffix = variantSuffixes.find((s) => rest.length > s.length && rest.endsWith(s));
    if (suffix === undefined) return false;
    rest = rest.slice(0, -suffix.length);
  }
}

/**
 * Schemes a link may never use, whatever the policy says: the link is its own body (`data:`) or script (`javascript:`
 * and its kin), so there is nothing to read and everything to run. A policy listing one in `links.schemes` does not
 * load; `file:` is not among them (a filesystem server's resources are `file:` uris, read through that server).
 */
export const neverAllowedSchemes: ReadonlySet<string> = new Set(['data', 'javascript', 'vbscript', 'livescript']);

/** True when `scheme` (lower-case) can never count as an opaque custom scheme: a listed one, or one that names a network protocol. */
export function isKnownNonCustomScheme(scheme: string): boolean {
  return knownNonCustomSchemes.has(scheme) || namesNetworkProtocol(scheme);
}

/** What the gate reads of one scheme (lower-case) for every link: looked up once, not rebuilt per link. */
export interface SchemeFacts {
  /** the default port of a WHATWG special scheme (`null` for `file:`); undefined for any other scheme */
  readonly defaultPort: number | null | undefined;
  /** `isKnownNonCustomScheme(scheme)` */
  readonly knownNonCustom: boolean;
  /** in `neverAllowedSchemes` */
  readonly neverAllowed: boolean;
}

// a scheme's facts never change; links carry few distinct schemes, and past this many new ones are not kept (a
// stream of made-up schemes costs the lookup it always did, never memory)
const maxKeptSchemes = 512;
const keptFacts = new Map<string, SchemeFacts>();

/** The facts of `scheme` (lower-case). */
export function schemeFacts(scheme: string): SchemeFacts {
  let facts = keptFacts.get(scheme);
  if (facts === undefined) {
    facts = Object.freeze({
      defaultPort: specialSchemeDefaultPorts.get(scheme),
      knownNonCustom: isKnownNonCustomScheme(scheme),
      neverAllowed: neverAllowedSchemes.has(scheme),
    });
    if (keptFacts.size < maxKeptSchemes) keptFacts.set(scheme, facts);
  }
  return facts;
}
