// The floor of any stdio proxy: a process that starts the server and copies bytes both ways, parsing nothing.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => {
  process.exitCode = code ?? 1;
});
