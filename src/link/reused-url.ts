// A link's uri is read by the WHATWG parser twice in the flow: masked for its discovered stage (`maskUri`), then
// decided (`parseUri`). The caller that does both makes one `UriReading` of the uri and hands it to each, so the uri is
// parsed at most once, and not at all when neither needs it (a uri that is its own serialization is read without a
// parse). The reading travels with the call (`StartLinkInput.reading`, `Gate.decideLink`'s second argument): no
// module state passes it from one call to another.

/**
 * The WHATWG reading of one uri text, parsed on first use and kept. Its URL is read, never changed (`maskUri` changes
 * a copy); the text cannot be changed, so the URL is always the reading of exactly `text`.
 */
export class UriReading {
  readonly #text: string;
  #url: URL | null | undefined;

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
}

/** `URL.parse(text)`: `reading`'s URL when it is a reading of exactly this text, else a new one. */
export function parsedUrl(text: string, reading?: UriReading): URL | null {
  return reading instanceof UriReading && reading.text === text ? reading.url : URL.parse(text);
}
