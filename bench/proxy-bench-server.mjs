// A stdio MCP server for the proxy bench, written by hand so its own cost is small and steady:
// `resources/read` of `bench://text/<bytes>` answers a text body of that many bytes; `tools/call` of `links`
// answers `arguments.count` resource links. Answers are built once per size and reused.
const cache = new Map();
const sentence = 'the quick brown fox jumps over the lazy dog. ';
function body(bytes) {
  return sentence.repeat(Math.ceil(bytes / sentence.length)).slice(0, bytes);
}
function readResult(uri) {
  let result = cache.get(uri);
  if (result === undefined) {
    const bytes = Number(uri.split('/').at(-1));
    result = JSON.stringify({ contents: [{ uri, mimeType: 'text/plain', text: body(bytes) }] });
    cache.set(uri, result);
  }
  return result;
}
function linksResult(count) {
  const key = `links:${count}`;
  let result = cache.get(key);
  if (result === undefined) {
    const content = [{ type: 'text', text: `${count} links` }];
    for (let i = 0; i < count; i += 1)
      content.push({
        type: 'resource_link',
        uri: `bench://text/${1024 + i}`,
        name: `doc-${i}`,
        mimeType: 'text/plain',
      });
    result = JSON.stringify({ content });
    cache.set(key, result);
  }
  return result;
}
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    const id = JSON.stringify(m.id);
    let result = '{}';
    if (m.method === 'resources/read') result = readResult(m.params.uri);
    else if (m.method === 'tools/call') result = linksResult(m.params.arguments.count);
    process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":${result}}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
