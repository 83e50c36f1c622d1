// When a browser takes text for an HTML page by its own bytes. The WHATWG MIME Sniffing standard (§7.1, step 2) and
// the browsers look only at the start of an untyped body, past white space: Chromium (net/base/mime_sniffer.cc) for
// `<!DOCTYPE html`, `<script`, `<html`, `<!--`, `<head`, `<iframe`, `<h1`, `<div`, `<font`, `<table`, `<a`, `<style`,
// `<title`, `<b`, `<body`, `<br`, `<p` as prefixes (`<br/` and `<blockquote` are pages to it), Firefox
// (nsUnknownDecoder) for any `<!` or `<?` and a few more tags (`<img `, `<meta `, `<form `, …). The gate takes the
// union and a margin: any body that opens with a tag (`<` and a letter, `!`, `?` or `/`) is read as the page it
// looks like, so a browser's list is never narrower than the gate's. Prose that shows markup further down (a how-to
// with a fenced `<script>`) is text to every browser, and to the gate.

// the white space browsers skip before the signature (the standard's five bytes, and the vertical tab Chromium adds)
function isLeadingSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0b || b === 0x0c || b === 0x0d;
}

function opensTag(b: number | undefined): boolean {
  if (b === undefined) return false;
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x21 || b === 0x3f || b === 0x2f;
}

/** True when `bytes` (UTF-8, past any byte order mark) open, after white space, with a tag: every HTML signature a browser sniffs a page by, and any other tag. */
export function opensAsPage(bytes: Buffer): boolean {
  let at = 0;
  while (at < bytes.length && isLeadingSpace(bytes[at])) at++;
  return bytes[at] === 0x3c && opensTag(bytes[at + 1]);
}

/** True when a declared type (normalized essence, or null) is one browsers sniff: none, or the standard's unknown types. */
export function sniffedAsUnknown(declaredMime: string | null): boolean {
  return (
    declaredMime === null ||
    declaredMime === 'unknown/unknown' ||
    declaredMime === 'application/unknown' ||
    declaredMime === '*/*' ||
    !declaredMime.includes('/')
  );
}
