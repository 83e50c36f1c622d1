import { quoteValue } from '../decision/quote-value.ts';
import { type FetchFunction, isLoopbackHost, readBody, requestError, send } from './bundle-http.ts';
import type { SourceCredentials } from './bundle-source.ts';
import type { OciReference } from './oci-reference.ts';

/** Largest token answer read, bytes. */
const maxTokenBytes = 64 * 1024;

/** A challenge of `WWW-Authenticate`: its scheme and parameters. */
interface Challenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses the first challenge of a `WWW-Authenticate` header (`Bearer realm="…",service="…",scope="…"`). */
export function parseChallenge(header: string): Challenge | undefined {
  const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(header);
  if (m === null) return undefined;
  const params: Record<string, string> = {};
  for (const p of (m[2] ?? '').matchAll(/([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g))
    params[(p[1] ?? '').toLowerCase()] = p[2] ?? p[3] ?? '';
  return { scheme: (m[1] ?? '').toLowerCase(), params };
}

/**
 * Speaks the OCI distribution API to one repository with `fetch`: anonymous first, then, when the registry answers
 * 401, the scheme it asks for (basic with the credentials, or a bearer token from its token service per the
 * distribution token spec, fetched with the credentials when given). The token is kept for the following requests.
 */
export class OciClient {
  readonly #ref: OciReference;
  readonly #fetch: FetchFunction;
  readonly #credentials: SourceCredentials | undefined;
  #authorization: string | undefined;

  constructor(ref: OciReference, fetchFn: FetchFunction, credentials?: SourceCredentials) {
    this.#ref = ref;
    this.#fetch = fetchFn;
    this.#credentials = credentials;
  }

  /** `https://host/v2/REPO/` + `path`. */
  url(path: string): string {
    return `${this.#ref.baseUrl}/v2/${this.#ref.repository}/${path}`;
  }

  /** Sends one request to the registry (a full url or a path under the repository), authenticating once on 401. */
  async request(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : this.url(pathOrUrl);
    const withAuth = (): RequestInit => {
      const headers = new Headers(init.headers);
      if (this.#authorization !== undefined) headers.set('authorization', this.#authorization);
      return { ...init, headers };
    };
    const first = await send(this.#fetch, url, withAuth());
    if (first.status !== 401) return first;
    const challenge = parseChallenge(first.headers.get('www-authenticate') ?? '');
    await first.body?.cancel();
    const method = init.method ?? 'GET';
    if (challenge === undefined) throw requestError(method, url, '401 without a `www-authenticate` challenge');
    this.#authorization = await this.#answer(challenge, method, url);
    const again = await send(this.#fetch, url, withAuth());
    if (again.status === 401) {
      await again.body?.cancel();
      throw requestError(method, url, 'the registry refused the credentials (401)');
    }
    return again;
  }

  async #answer(challenge: Challenge, method: string, url: string): Promise<string> {
    const basic =
      this.#credentials === undefined
        ? undefined
        : `Basic ${Buffer.from(`${this.#credentials.username}:${this.#credentials.password}`).toString('base64')}`;
    if (challenge.scheme === 'basic') {
      if (basic === undefined) throw requestError(method, url, 'the registry needs credentials (`--user`)');
      return basic;
    }
    if (challenge.scheme !== 'bearer')
      throw requestError(method, url, `unsupported auth scheme ${quoteValue(challenge.scheme)}`);
    const realm = challenge.params['realm'] ?? '';
    let tokenUrl: URL;
    try {
      tokenUrl = new URL(realm);
    } catch {
      throw requestError(method, url, `the token realm ${quoteValue(realm)} is not a url`);
    }
    // credentials go to the token service only over https, or plain http on loopback
    if (tokenUrl.protocol !== 'https:' && !(tokenUrl.protocol === 'http:' && isLoopbackHost(tokenUrl.hostname)))
      throw requestError(method, url, `the token realm ${quoteValue(realm)} is not https`);
    if (challenge.params['service'] !== undefined) tokenUrl.searchParams.set('service', challenge.params['service']);
    if (challenge.params['scope'] !== undefined) tokenUrl.searchParams.set('scope', challenge.params['scope']);
    const answer = await send(
      this.#fetch,
      tokenUrl.href,
      basic === undefined ? {} : { headers: { authorization: basic } },
    );
    if (!answer.ok) {
      await answer.body?.cancel();
      throw requestError('GET', tokenUrl.href, `the token service answered ${answer.status}`);
    }
    let token: unknown;
    try {
      const body = JSON.parse((await readBody(answer, maxTokenBytes, 'the token answer')).toString('utf8')) as {
        token?: unknown;
        access_token?: unknown;
      };
      token = body.token ?? body.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string' || token === '' || /[\r\n]/.test(token))
      throw requestError('GET', tokenUrl.href, 'the token service gave no token');
    return `Bearer ${token}`;
  }
}
