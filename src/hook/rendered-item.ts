import { isRecord } from '../decision/json-value.ts';
import { maxUriChars } from '../link/parse-uri.ts';

/** What one item of a host's MCP tool output stands for, to the gate. */
export type RenderedItem =
  /** a link; `rendered` is the host's text line when the uri could not be split off it for sure (matched at read time) */
  | { kind: 'link'; link: Record<string, unknown>; rendered?: string }
  | { kind: 'embedded'; resource: Record<string, unknown> }
  /** a binary body the host saved to a file and points the model at; `mimeType` as the host printed it */
  | { kind: 'saved-file'; path: string; uri: string; mimeType?: string }
  /** the header of a binary resource whose body follows as other items (`[Resource from s at uri] `) */
  | { kind: 'header'; uri: string }
  /** text that is no item of the gate's: a server's own text, or a host note with no body */
  | { kind: 'text' }
  /** cannot be recognised where an item can stand: withheld, never passed as text */
  | { kind: 'unknown' };

// Claude Code renders an MCP tool result as text before hooks see it (read in the 2.1.332 binary and observed; see
// test/real-host/observed/claude-code/renderings-events.json): a `resource_link` is `[Resource link: NAME] URI`, then
// ` (DESCRIPTION)` when it has one (no title, type or size); an embedded text resource `[Resource from SERVER at URI]
// TEXT`; an embedded image `[Resource from SERVER at URI] `, the image block, then `[Image source: PATH]` or
// `[Image: source: PATH…]`; any other binary body `[Resource from SERVER at URI] Binary content (MIME, SIZE) saved to
// PATH`, audio `[Audio from SERVER] Binary content …`. Names, uris and descriptions are written as the server sent
// them, so a `]`, `(` or space inside them makes a line ambiguous: links are matched against the uri a read asks for.
const linkPrefix = '[Resource link: ';
const resourcePrefix = '[Resource from ';
const binaryNote = 'Binary content (';
const savedBinary = /^Binary content \(([\s\S]*), ([0-9][^,()]*)\) saved to (.+)$/;
const imageSource = /^\[Image source: (.+)\]$/;
const imageSourceSized =
  /^\[Image: source: (.+?)(?:, original \d+x\d+, displayed at \d+x\d+\. Multiply coordinates by [0-9.]+ to map to original image\.)?\]$/;
const mediaFrom = /^\[(?:Audio|Image) from [\s\S]*?\] Binary content \(([\s\S]*), ([0-9][^,()]*)\) saved to (.+)$/;
// host notes that carry no body: a binary the host did not keep, an image it could not process or only resized
const bodilessNote =
  /^(?:\[(?:Audio|Image) from [\s\S]*?\] Binary content \([\s\S]*\) could not be saved to disk: [\s\S]*|\[Binary content \([\s\S]*\) was not kept: [\s\S]*\]|\[Image could not be processed: [\s\S]*\]|\[Image: original \d+x\d+, displayed at [\s\S]*\])$/;
// text that opens like one of the host's renderings: an item stands here, so what does not parse is withheld
const renderingStart =
  /^\[(?:Resource link: |Resource from |Image source: |Image: |Audio from |Image from |Binary content )/;
/**
 * Longest host note matched against the note patterns, characters: the patterns backtrack on a crafted note (work
 * quadratic in its length), and the host's own notes are short; a longer text that opens like a note is withheld.
 */
export const maxNoteChars = 8192;
// Gemini CLI (0.61, observed and read in its source) renders a `resource_link` as `Resource Link: TITLE-OR-NAME at URI`
const geminiPrefix = 'Resource Link: ';
const geminiLink = /^Resource Link: ([\s\S]*?) at ([\s\S]*)$/;

/** A link line's name, uri and description when the line renders a link to exactly `uri`; null when it cannot. */
export function renderedLinkFor(line: string, uri: string): { name: string; uri: string; description?: string } | null {
  if (line.startsWith(geminiPrefix)) {
    const tail = ` at ${uri}`;
    return line.endsWith(tail) && line.length >= geminiPrefix.length + tail.length
      ? { name: line.slice(geminiPrefix.length, -tail.length), uri }
      : null;
  }
  if (!line.startsWith(linkPrefix)) return null;
  const body = line.slice(linkPrefix.length);
  const bare = `] ${uri}`;
  if (body.endsWith(bare)) return { name: body.slice(0, -bare.length), uri };
  if (!body.endsWith(')')) return null;
  // `NAME] URI (DESCRIPTION)`: the first place the uri fits (names rarely hold `] uri (`)
  const described = `] ${uri} (`;
  const at = body.indexOf(described);
  if (at < 0) return null;
  return { name: body.slice(0, at), uri, description: body.slice(at + described.length, -1) };
}

/** Most ways one rendered link line is split to find the link it stands for; a line with more is withheld. */
export const maxSplitCandidates = 64;

/** Longest rendered link line split, characters (a name, a uri of at most `maxUriChars`, a description). */
export const maxRenderedLinkChars = 4 * maxUriChars;

/**
 * Every link a rendered link line may stand for: the line is split at each place a uri could start (a name or
 * description may hold the separators), each split as `renderedLinkFor` would accept it. A refused link is replaced
 * when any of them is denied, so a name built to move the split cannot hide a denied uri. Null when the line is
 * longer than `maxRenderedLinkChars` or splits more than `maxSplitCandidates` ways: it cannot be judged in time, and
 * the caller withholds it.
 */
export function renderedLinkCandidates(line: string): Record<string, unknown>[] | null {
  if (line.length > maxRenderedLinkChars) return null;
  const uris = new Set<string>();
  const [prefix, separator] = line.startsWith(geminiPrefix) ? [geminiPrefix, ' at '] : [linkPrefix, '] '];
  if (!line.startsWith(prefix)) return [];
  let splits = 0;
  for (let at = line.indexOf(separator, prefix.length); at >= 0; at = line.indexOf(separator, at + 1)) {
    const rest = line.slice(at + separator.length);
    if (++splits > maxSplitCandidates) return null;
    uris.add(rest);
    if (separator === '] ' && rest.endsWith(')'))
      for (let open = rest.indexOf(' ('); open >= 0; open = rest.indexOf(' (', open + 1)) {
        if (++splits > maxSplitCandidates) return null;
        uris.add(rest.slice(0, open));
      }
  }
  const links: Record<string, unknown>[] = [];
  for (const uri of uris) {
    const parts = renderedLinkFor(line, uri);
    if (parts !== null) links.push({ type: 'resource_link', ...parts });
  }
  return links;
}

/** The link a rendered line most likely stands for (split at the first `] `, a trailing ` (…)` as the description). */
function guessLink(line: string): Record<string, unknown> | null {
  const body = line.slice(linkPrefix.length);
  const split = body.indexOf('] ');
  if (split < 0) return null;
  const rest = body.slice(split + 2);
  const open = rest.endsWith(')') ? rest.indexOf(' (') : -1;
  const uri = open < 0 ? rest : rest.slice(0, open);
  const link: Record<string, unknown> = { type: 'resource_link', name: body.slice(0, split), uri };
  if (open >= 0) link['description'] = rest.slice(open + 2, -1);
  return link;
}

/** `[Resource from SERVER at URI] REST` split into the uri and the rest; `server` (from the tool's name) first. */
function resourceParts(text: string, server: string | null): { uri: string; rest: string } | null {
  let tail: string | null = null;
  const known = server === null ? null : `${resourcePrefix}${server} at `;
  if (known !== null && text.startsWith(known)) tail = text.slice(known.length);
  else {
    const at = text.indexOf(' at ', resourcePrefix.length);
    if (at >= 0) tail = text.slice(at + 4);
  }
  if (tail === null) return null;
  // the uri ends at the first `] `; when the first line holds another `] ` the split is ambiguous (a uri holding `] `
  // would move the body's start, and checks anchored there, such as a shebang, would read it wrongly): unrecognised
  const end = tail.indexOf('] ');
  if (end < 0) return tail.endsWith(']') ? { uri: tail.slice(0, -1), rest: '' } : null;
  const lineEnd = tail.indexOf('\n');
  const again = tail.indexOf('] ', end + 2);
  if (again >= 0 && (lineEnd < 0 || again < lineEnd)) return null;
  return { uri: tail.slice(0, end), rest: tail.slice(end + 2) };
}

function savedFile(path: string, uri: string, mimeType: string): RenderedItem {
  return { kind: 'saved-file', path, uri, mimeType };
}

function textItem(text: string, lastUri: string, server: string | null): RenderedItem {
  if (text.startsWith(linkPrefix)) {
    const link = guessLink(text);
    return link === null ? { kind: 'unknown' } : { kind: 'link', link, rendered: text };
  }
  const gemini = geminiLink.exec(text);
  if (gemini !== null)
    return { kind: 'link', link: { type: 'resource_link', name: gemini[1], uri: gemini[2] }, rendered: text };
  if (text.startsWith(resourcePrefix)) {
    const parts = resourceParts(text, server);
    if (parts === null) return { kind: 'unknown' };
    // an empty body is the header of a binary resource whose bytes follow as other items
    if (parts.rest === '') return { kind: 'header', uri: parts.uri };
    if (parts.rest.startsWith(binaryNote) && parts.rest.length > maxNoteChars) return { kind: 'unknown' };
    const binary = savedBinary.exec(parts.rest);
    if (binary !== null) return savedFile(binary[3] as string, parts.uri, binary[1] as string);
    return { kind: 'embedded', resource: { uri: parts.uri, text: parts.rest } };
  }
  // past this only host notes match, and a note this long is no note of the host's
  if (text.length > maxNoteChars) return renderingStart.test(text) ? { kind: 'unknown' } : { kind: 'text' };
  const source = imageSource.exec(text) ?? imageSourceSized.exec(text);
  if (source !== null) return { kind: 'saved-file', path: source[1] as string, uri: lastUri };
  const media = mediaFrom.exec(text);
  if (media !== null) return savedFile(media[3] as string, '', media[1] as string);
  if (bodilessNote.test(text)) return { kind: 'text' };
  return renderingStart.test(text) ? { kind: 'unknown' } : { kind: 'text' };
}

/** A base64 body the host passes the model itself: Claude Code's `{type: image|document, source: {type: base64}}`. */
function sourceBlock(item: Record<string, unknown>, lastUri: string): RenderedItem {
  const source = item['source'];
  if (!isRecord(source) || source['type'] !== 'base64' || typeof source['data'] !== 'string')
    return { kind: 'unknown' };
  const resource: Record<string, unknown> = { uri: lastUri, blob: source['data'] };
  if (typeof source['media_type'] === 'string') resource['mimeType'] = source['media_type'];
  return { kind: 'embedded', resource };
}

/**
 * Classifies one content item, native (`resource_link`, `resource`, `image`/`audio` with base64 `data`) or as a host
 * rendered it; `lastUri` is the uri of the nearest resource header before it, `server` the tool's server when known.
 */
export function renderedItem(item: unknown, lastUri: string, server: string | null = null): RenderedItem {
  if (!isRecord(item)) return { kind: 'unknown' };
  const type = item['type'];
  if (type === 'resource_link') return { kind: 'link', link: item };
  if (type === 'resource')
    return isRecord(item['resource']) ? { kind: 'embedded', resource: item['resource'] } : { kind: 'unknown' };
  if ((type === 'image' || type === 'audio') && typeof item['data'] === 'string') {
    const resource: Record<string, unknown> = { uri: lastUri, blob: item['data'] };
    if (typeof item['mimeType'] === 'string') resource['mimeType'] = item['mimeType'];
    return { kind: 'embedded', resource };
  }
  if (type === 'image' || type === 'document') return sourceBlock(item, lastUri);
  if (type === 'text' && typeof item['text'] === 'string') return textItem(item['text'], lastUri, server);
  return { kind: 'unknown' };
}
