// One hash of a host name's text that a single pass over the name computes on the way (`classifyHostName`), so tables
// of known names and labels are looked up by a number, and a name none of them holds is never sliced or hashed again.

/** A 31-bit polynomial hash of `text`'s UTF-16 code units (`h = h * 31 + c`), as a pass over a name computes it. */
export function nameHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) & 0x7fffffff;
  return hash;
}
