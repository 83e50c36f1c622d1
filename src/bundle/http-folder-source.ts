import { quoteValue } from '../decision/quote-value.ts';
import { GateError } from '../errors.ts';
import { type FetchFunction, isLoopbackHost, readBody, requestError, send } from './bundle-http.ts';
import { manifestName, manifestSignatureName, maxManifestBytes } from './bundle-manifest.ts';
import type { BundleSource, PollResult, SourceCredentials } from './bundle-source.ts';

/** How to reach a static folder: the `fetch` to use, basic credentials, and whether loopback http is allowed. */
export interface HttpFolderOptions {
  readonly fetch?: FetchFunction;
  readonly credentials?: SourceCredentials;
  /** allow `http://` (loopback hosts only) */
  readonly plainHttp?: boolean;
}

/** The folder url of an `https://` reference (a final `/` added); throws GateError USAGE naming what is wrong. */
export function parseFolderUrl(text: string, plainHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new GateError('USAGE', `the reference ${quoteValue(text)} is not a url`);
  }
  if (url.protocol === 'http:') {
    if (!plainHttp)
      throw new GateError(
        'USAGE',
        `the reference ${quoteValue(text)} is http: use https (or \`--plain-http\` on loopback)`,
      );
    if (!isLoopbackHost(url.hostname))
      throw new GateError(
        'USAGE',
        `the reference ${quoteValue(text)} uses \`--plain-http\` with a host that is not loopback`,
      );
  } else if (url.protocol !== 'https:')
    throw new GateError('USAGE', `the reference ${quoteValue(text)} is neither \`oci://\` nor \`https://\``);
  if (url.username !== '' || url.password !== '')
    throw new GateError(
      'USAGE',
      `the reference ${quoteValue(text)} carries credentials (use \`--user\` and the environment)`,
    );
  if (url.search !== '' || url.hash !== '')
    throw new GateError('USAGE', `the reference ${quoteValue(text)} has a query or fragment`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * A bundle source over a static folder (any web server or bucket): `manifest.json` fetched with `If-None-Match`, so
 * an unchanged bundle costs one request and a 304; then `manifest.json.sig` and each file the manifest lists.
 */
export function httpFolderSource(folder: URL, shownAs: string, options: HttpFolderOptions = {}): BundleSource {
  const fetchFn = options.fetch ?? fetch;
  const auth: Record<string, string> =
    options.credentials === undefined
      ? {}
      : {
          authorization: `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`,
        };
  const get = async (name: string, maxBytes: number, headers: Record<string, string> = {}) => {
    const url = new URL(name, folder).href;
    // a redirect may leave the folder's origin: credentials stay with the folder, so redirects are not followed
    const response = await send(fetchFn, url, { headers: { ...auth, ...headers }, redirect: 'error' });
    if (response.status === 304) {
      await response.body?.cancel();
      return { response, bytes: undefined };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw requestError('GET', url, `the server answered ${response.status}`);
    }
    return { response, bytes: await readBody(response, maxBytes, name) };
  };
  return {
    shownAs,
    async poll(etag): Promise<PollResult> {
      const first = await get(manifestName, maxManifestBytes, etag === undefined ? {} : { 'if-none-match': etag });
      if (first.bytes === undefined) return { unchanged: true };
      let signature: string | undefined;
      try {
        signature = (await get(manifestSignatureName, maxManifestBytes)).bytes?.toString('utf8');
      } catch (error) {
        if (!(error instanceof GateError && / 404$/.test(error.message))) throw error;
      }
      return {
        unchanged: false,
        manifest: first.bytes,
        signature,
        etag: first.response.headers.get('etag') ?? undefined,
        async fetchFile(name, _digest, maxBytes) {
          const { bytes } = await get(name, maxBytes);
          if (bytes === undefined) throw new GateError('READ_FAILED', `${shownAs}: ${quoteValue(name)} answered 304`);
          return bytes;
        },
      };
    },
  };
}
