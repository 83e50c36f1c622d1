// The WHATWG reading of the uri `maskUri` parsed last, when it is left as parsed: the flow masks a link's uri for its
// discovered stage just before the link decision parses the same text (`parseUri`), which takes this reading instead
// of parsing the uri a second time. One entry, taken once: each URL object reaches one reader, and `maskUri` keeps
// only a URL it does not change and does not hold on to.
let keptText: string | null = null;
let keptUrl: URL | null = null;

/** Keeps `url`, the WHATWG reading of exactly `text` that nothing will change, for the next `parsedUrl(text)`. */
export function keepParsedUrl(text: string, url: URL): void {
  keptText = text;
  keptUrl = url;
}

/** `URL.parse(text)`: the reading kept for exactly this text when there is one (taken, so kept no more), else a new one. */
export function parsedUrl(text: string): URL | null {
  if (keptText !== text) return URL.parse(text);
  const url = keptUrl;
  keptText = null;
  keptUrl = null;
  return url;
}
