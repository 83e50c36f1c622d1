// nbconvert's classic and lab templates write an image output's size metadata unquoted into its `<img>` tag
// (`width={{ width | escape_html }}`): `html.escape` leaves spaces and `=`, so a width of `1 onload=…` is a handler.
// The tag is made here as nbconvert makes it, for the HTML parser to read as the page does.

// the outputs nbconvert writes as an `<img>` with size attributes, by their bundle keys (nbformat 4, and 3's)
const sizedImages: Readonly<Record<string, string>> = {
  'image/png': 'image/png',
  png: 'image/png',
  'image/jpeg': 'image/jpeg',
  jpeg: 'image/jpeg',
};

/** The `<img>` tag nbconvert writes for an image output's `width` and `height` metadata (its `get_metadata`: the image type's entry, else the output's own), or null when the output has no png or jpeg image or no size metadata. */
export function imageSizeTag(output: Record<string, unknown>): string | null {
  const data = isRecord(output['data']) ? output['data'] : output;
  const metadata = isRecord(output['metadata']) ? output['metadata'] : {};
  const attributes: string[] = [];
  for (const [key, mime] of Object.entries(sizedImages)) {
    if (data[key] === undefined) continue;
    const own = metadata[mime] ?? metadata[key];
    for (const name of ['width', 'height']) {
      const value = (isRecord(own) ? own[name] : undefined) ?? metadata[name];
      if (value !== undefined && value !== null) attributes.push(`${name}=${escapeHtml(pythonText(value))}`);
    }
  }
  return attributes.length === 0 ? null : `<img src="output.png" ${attributes.join(' ')}>`;
}

// `str(value)` of a JSON value in Python: strings as they are, numbers as written, booleans and lists or objects as
// Python prints them (quotes become references below, spaces stay)
function pythonText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null) return 'None';
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isRecord(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  return typeof value === 'number' ? String(value) : '';
}

function pythonRepr(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : pythonText(value);
}

// Python's `html.escape` (quotes included)
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
