// A stdio MCP server for the proxy bench, written by hand so its own cost is small and steady:
// `resources/read` of `bench://text/<bytes>` answers a text body of that many bytes, of `bench://png/<bytes>` a
// valid png of about that many bytes as a base64 blob; `tools/call` of `links` answers `arguments.count` resource
// links. Answers are built once per size and reused.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const cache = new Map();
// a 1024×1024 RGBA png whose IDAT holds `bytes` of random data (its checks pass; nothing decodes the pixels)
function png(bytes) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed) >>> 0);
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1024, 0);
  header.writeUInt32BE(1024, 4);
  header[8] = 8;
  header[9] = 6;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = chunk('IDAT', randomBytes(Math.max(16, bytes - 57)));
  return Buffer.concat([signature, chunk('IHDR', header), idat, chunk('IEND', Buffer.alloc(0))]);
}
const sentence = 'the quick brown fox jumps over the lazy dog. ';
function body(bytes) {
  return sentence.repeat(Math.ceil(bytes / sentence.length)).slice(0, bytes);
}
function readResult(uri) {
  let result = cache.get(uri);
  if (result === undefined) {
    const bytes = Number(uri.split('/').at(-1));
    const item = uri.startsWith('bench://png/')
      ? { uri, mimeType: 'image/png', blob: png(bytes).toString('base64') }
      : { uri, mimeType: 'text/plain', text: body(bytes) };
    result = JSON.stringify({ contents: [item] });
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
