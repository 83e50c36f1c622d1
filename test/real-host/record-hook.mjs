// A hook command that records what the host sent it: appends its stdin (one JSON event) as one line to the
// file named by its first argument, prints nothing and exits 0, so the host goes on as if no hook ran.
import { appendFileSync } from 'node:fs';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const text = Buffer.concat(chunks).toString('utf8');
let line;
try {
  line = JSON.stringify(JSON.parse(text));
} catch {
  line = JSON.stringify({ unparsable: text });
}
appendFileSync(process.argv[2], `${line}\n`);
