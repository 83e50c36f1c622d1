import { GateError } from '../errors.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { isLoopbackHost } from './bundle-http.ts';

/** An OCI reference `oci://HOST[:PORT]/REPO:TAG`, parsed. */
export interface OciReference {
  /** `host[:port]` as the registry is addressed */
  readonly host: string;
  readonly repository: string;
  readonly tag: string;
  /** `https://host[:port]`, or `http://…` for a loopback registry under `--plain-http` */
  readonly baseUrl: string;
}

// the distribution spec's repository name and tag grammars. The repository pattern is linear: every `[a-z0-9]+` run must
// be followed by a separator, a `/` or the end, and every separator by `[a-z0-9]`, so a failed match backtracks one
// character per step, never a run again (test/bundle/oci-reference.test.ts refuses 100 KB inputs of each shape)
const repositoryPattern = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;
const tagPattern = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/**
 * Parses `oci://HOST[:PORT]/REPO:TAG` with the WHATWG URL parser. Plain http is spoken only with `plainHttp` and only
 * to a loopback host. Throws GateError USAGE naming what is wrong.
 */
export function parseOciReference(text: string, plainHttp: boolean): OciReference {
  const fail = (why: string): never => {
    throw new GateError('USAGE', `the reference ${quoteValue(text)} ${why}; expected \`oci://HOST[:PORT]/REPO:TAG\``);
  };
  if (!text.startsWith('oci://')) fail('is not an oci reference');
  let url: URL;
  try {
    url = new URL(`https://${text.slice('oci://'.length)}`);
  } catch {
    return fail('does not parse');
  }
  if (url.username !== '' || url.password !== '') fail('carries credentials (use `--user` and the environment)');
  if (url.search !== '' || url.hash !== '') fail('has a query or fragment');
  let path = '';
  try {
    path = decodeURIComponent(url.pathname.slice(1));
  } catch {
    fail('has a path that does not percent-decode');
  }
  const colon = path.lastIndexOf(':');
  if (colon === -1 || colon < path.lastIndexOf('/')) fail('has no `:TAG`');
  const repository = path.slice(0, colon);
  const tag = path.slice(colon + 1);
  if (!repositoryPattern.test(repository)) fail(`has a repository name ${quoteValue(repository)} the registry refuses`);
  if (!tagPattern.test(tag)) fail(`has a tag ${quoteValue(tag)} the registry refuses`);
  if (plainHttp && !isLoopbackHost(url.hostname)) fail('uses `--plain-http` with a host that is not loopback');
  return Object.freeze({ host: url.host, repository, tag, baseUrl: `${plainHttp ? 'http' : 'https'}://${url.host}` });
}
