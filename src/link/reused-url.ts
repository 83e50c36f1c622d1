// A link's uri is read by the WHATWG parser twice in the flow: masked for its discovered stage (`maskUri`), then
// decided (`parseUri`). The caller that does both makes one `UriReading` of the uri and hands it to each, so the uri is
// parsed at most once, and not at all when neither needs it (a uri that is its own serialization is read without a
// parse). The reading travels with the call (`StartLinkInput.reading`, `Gate.decideLink`'s second argument): no
// module state passes it from one call to another. The reading also keeps `readCanonicalNetworkUri`'s record of the
// text, which both ask for: a usual https link is read by that pass once, not twice; and `readCanonicalOpaqueUri`'s
// answer, so a usual custom-scheme link is read without a parse by either.

import { type CanonicalParts, readCanonicalNetworkUri } from './canonical-network-uri.ts';
import { readCanonicalOpaqueUri } from './canonical-opaque-uri.ts';

/**
 * The WHATWG reading of one uri text, parsed on first use and kept. Its URL is read, never changed (`maskUri` changes
 * a copy); the text cannot be changed, so the URL is always the reading of exactly `text`.
 */
export class UriReading {
  readonly #text: string;
  #url: URL | null | undefined;
  #canonical: Readonly<CanonicalParts> | null | undefined;
  #opaque = -2;

  constructor(text: string) {
    this.#text = text;
  }

  /** The uri text read. */
  get text(): string {
    return this.#text;
  }

  /** `URL.parse(text)`, made once. */
  get url(): URL | null {
    if (this.#url === undefined) this.#url = URL.parse(this.#text);
    return this.#url;
  }

  /** `readCanonicalNetworkUri(text)`, made once; read, never changed. */
  get canonical(): Readonly<CanonicalParts> | null {
    if (this.#canonical === undefined) this.#canonical = readCanonicalNetworkUri(this.#text);
    return this.#canonical;
  }

  /** `readCanonicalOpaqueUri(text)`, made once. */
  get opaque(): number {
    if (this.#opaque === -2) this.#opaque = readCanonicalOpaqueUri(this.#text);
    return this.#opaque;
  }
}

/** `URL.parse(text)`: `reading`'s URL when it is a reading of exactly this text, else a new one. */
export function parsedUrl(text: string, reading?: UriReading): URL | null {
  return reading instanceof UriReading && reading.text === text ? reading.url : URL.parse(text);
}

/** `readCanonicalNetworkUri(text)`: `reading`'s record when it is a reading of exactly this text, else a new one. */
export function canonicalParts(text: string, reading?: UriReading): Readonly<CanonicalParts> | null {
  return reading instanceof UriReading && reading.text === text ? reading.canonical : readCanonicalNetworkUri(text);
}

/** `readCanonicalOpaqueUri(text)`: `reading`'s answer when it is a reading of exactly this text, else a new one. */
export function opaqueHostEnd(text: string, reading?: UriReading): number {
  return reading instanceof UriReading && reading.text === text ? reading.opaque : readCanonicalOpaqueUri(text);
}
