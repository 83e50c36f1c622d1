import { homedir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { formatDoctorText } from '../doctor/format-doctor.ts';
import { runDoctor } from '../doctor/run-doctor.ts';
import { hostLabels } from '../hosts/hosts.ts';
import { commandRunner, defineCommand } from './command-definition.ts';

/** `linkgate doctor` (docs/doctor.md): which configured MCP servers linkgate gates, in every host, and why not. */
export const doctorDefinition = defineCommand({
  name: 'doctor',
  summary: `list the mcp servers of ${hostLabels()} and say which linkgate gates`,
  synopsis: '[--project DIR] [--allow-observe] [--require-signed] [--no-start] [--json]',
  description: [
    "reads the mcp servers each host has configured on this machine and in the project (claude code's user, project and local scopes; codex; gemini cli; cursor; cline's mcp settings and hook folders; copilot cli's mcp-config.json and the project's .github/hooks; windsurf's mcp_config.json and hooks.json files) and says for each whether linkgate gates it: `linkgate proxy` in front of it, or a linkgate hook of its host that will run (the entry it names exists, codex has trusted it in `/hooks`) and sees both its reads and its tool results.",
    'for each proxy and hook it names the policy and whether the policy loads and its review verifies against the allowed signers the command gets (`--allowed-signers`, else $LINKGATE_ALLOWED_SIGNERS).',
    "a hook's matchers are judged as its host reads them, against the names the host gives the server's tools: doctor starts each user- or local-scope server a hook gates (as the host would; never one the project's files declare) and lists its tools, unless `--no-start`.",
    'gated means enforcing: a proxy or hook in `--mode observe` is listed as observe, not gated, and fails the run unless `--allow-observe`. hooks alone whose state folder the shell of the agent can write (no host sandbox keeping it out) are partly gated: each event is judged, but what the session refused can be undone; the fix is `linkgate proxy` in front (`--print-config --server`). each server says how it fails when its front end cannot answer (closed, or open where the host lets the call through when the hook cannot start), and names a `--records` file that cannot be written.',
    "doctor judges from each host's files and its own environment: it cannot see the flags or environment a host is started with (claude code's `--bare`, `--settings`, `--mcp-config`; codex's `-c`, `--profile`), and says so wherever it calls a server gated (`unseen` in `--json`).",
  ],
  options: {
    project: {
      type: 'string',
      value: 'DIR',
      description:
        'the project folder whose .mcp.json, .gemini/, .cursor/ and .claude/ are read (default: the working directory)',
    },
    'allow-observe': {
      type: 'boolean',
      description: 'accept front ends in `--mode observe` (still listed as observe, never as gated) during a rollout',
    },
    'require-signed': {
      type: 'boolean',
      description: 'a policy whose review is not checked against allowed signers (and verified) does not gate',
    },
    'no-start': {
      type: 'boolean',
      description:
        "do not start hook-gated servers to list their tools: a hook's matcher then counts only when it covers every tool name",
    },
    json: { type: 'boolean', description: 'print the report as one json object (docs/doctor.md)' },
  },
  // a fresh HOME and project hold no servers: the example shows the empty report and exits 0
  example: 'export HOME="$(mktemp -d)" && linkgate doctor --project "$HOME"',
  exitCodes: {
    0: 'every enabled server is gated (or observed, with --allow-observe) and every linkgate hook will run',
    1: 'a server is not gated, only partly gated (hooks alone whose memory of refusals the agent can undo) or only observed, a linkgate hook will not run, or a configuration file cannot be read',
    2: 'usage error',
  },
  run: async ({ values }, io) => {
    const home = io.env['HOME'] ?? homedir();
    const cwd = values.project === undefined ? io.cwd : resolvePath(io.cwd, values.project);
    const report = await runDoctor(
      { home, cwd, env: io.env },
      {
        allowObserve: values['allow-observe'] === true,
        requireSigned: values['require-signed'] === true,
        startServers: values['no-start'] !== true,
      },
    );
    io.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorText(report, home));
    return report.ok ? 0 : 1;
  },
});

/** `linkgate doctor` as a runnable command. */
export const doctorCommand = commandRunner(doctorDefinition);
