// A hook command that answers from a script (see answeringCommand in claude-code.ts): its first argument names
// a JSON file of answers keyed by `<hook_event_name> <tool_use_id>`, `<hook_event_name> <tool_name> <tool_input.uri>`
// or `<hook_event_name> <tool_name>` (first found wins), each
// `{ stdout?: object, stderr?: string, exitCode?: number }`; its second argument, when given, names a file
// that gets each event's stdin as one JSON line. No answer: print nothing and exit 0.
import { appendFileSync, readFileSync } from 'node:fs';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const text = Buffer.concat(chunks).toString('utf8');
const [answersFile, logFile] = process.argv.slice(2);
let event = {};
try {
  event = JSON.parse(text);
} catch {
  event = { unparsable: text };
}
if (logFile !== undefined) appendFileSync(logFile, `${JSON.stringify(event)}\n`);
const answers = JSON.parse(readFileSync(answersFile, 'utf8'));
const answer =
  answers[`${event.hook_event_name} ${event.tool_use_id}`] ??
  answers[`${event.hook_event_name} ${event.tool_name} ${event.tool_input?.uri}`] ??
  answers[`${event.hook_event_name} ${event.tool_name}`];
if (answer !== undefined) {
  if (answer.stdout !== undefined) process.stdout.write(JSON.stringify(answer.stdout));
  if (answer.stderr !== undefined) process.stderr.write(answer.stderr);
  process.exitCode = answer.exitCode ?? 0;
}
