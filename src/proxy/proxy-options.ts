import { parseArgs } from 'node:util';
import { GateError } from '../errors.ts';
import type { OnRecordError } from '../record/record-error.ts';
import { modernHeaderNames } from './modern-request-headers.ts';
import { errorLine } from '../decision/error-line.ts';

/** Where the real server is: a command to start, or a remote Streamable HTTP endpoint. */
export type ProxyUpstream =
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'url'; url: string; headers: Array<[string, string]> };

/** The parsed options of `linkgate proxy`. */
export interface ProxyOptions {
  policy: string;
  server: string;
  records: string | null;
  mode: 'enforce' | 'observe';
  /** enforce mode, when a record cannot be written: withhold the answer it records (default) or pass it on */
  onRecordError: OnRecordError;
  /** start the optional OpenTelemetry SDK (spans and metrics per link record) */
  otel: boolean;
  upstream: ProxyUpstream;
}

// an HTTP header name is a token (RFC 9110 §5.1)
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses `linkgate proxy` arguments; `env` fills `${NAME}` in header values (a host's config cannot expand them).
 * Returns `help` for `--help`; throws GateError `USAGE` naming the bad option.
 */
export function parseProxyArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ProxyOptions | 'help' {
  const split = args.indexOf('--');
  const optionArgs = split === -1 ? [...args] : args.slice(0, split);
  const command = split === -1 ? [] : args.slice(split + 1);
  let values: {
    policy?: string;
    server?: string;
    records?: string;
    mode?: string;
    'on-record-error'?: string;
    url?: string;
    header?: string[];
    otel?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: optionArgs,
      strict: true,
      allowPositionals: false,
      options: {
        policy: { type: 'string' },
        server: { type: 'string' },
        records: { type: 'string' },
        mode: { type: 'string' },
        'on-record-error': { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        otel: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new GateError('USAGE', argumentMessage(error));
  }
  if (values.help === true) return 'help';
  return proxyOptionsFrom(values, command, env);
}

/** The raw values of `linkgate proxy`'s options, as the argument parser gives them. */
export interface ProxyOptionValues {
  readonly policy?: string | undefined;
  readonly server?: string | undefined;
  readonly records?: string | undefined;
  readonly mode?: string | undefined;
  readonly 'on-record-error'?: string | undefined;
  readonly url?: string | undefined;
  readonly header?: readonly string[] | undefined;
  readonly otel?: boolean | undefined;
}

/** Checks parsed option values and the words after `--` into proxy options; throws GateError `USAGE` naming the bad option. */
export function proxyOptionsFrom(
  values: ProxyOptionValues,
  command: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ProxyOptions {
  if (values.policy === undefined || values.policy === '') throw new GateError('USAGE', 'missing `--policy FILE`');
  const mode = values.mode ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'observe')
    throw new GateError('USAGE', `option \`--mode\` must be \`enforce\` or \`observe\`, not \`${mode}\``);
  const onRecordError = values['on-record-error'] ?? 'withhold';
  if (onRecordError !== 'withhold' && onRecordError !== 'report')
    throw new GateError(
      'USAGE',
      `option \`--on-record-error\` must be \`withhold\` or \`report\`, not \`${onRecordError}\``,
    );
  const server = values.server ?? 'default';
  if (server === '') throw new GateError('USAGE', 'option `--server` needs a non-empty id');
  const base = {
    policy: values.policy,
    server,
    records: values.records ?? null,
    mode,
    onRecordError,
    otel: values.otel === true,
  } as const;
  const headers = (values.header ?? []).map((h) => parseHeader(h, env));
  if (values.url !== undefined) {
    if (command.length > 0) throw new GateError('USAGE', 'give either `--url URL` or `-- COMMAND`, not both');
    return { ...base, upstream: { kind: 'url', url: values.url, headers } };
  }
  if (headers.length > 0) throw new GateError('USAGE', 'option `--header` needs `--url URL`');
  const [executable, ...rest] = command;
  if (executable === undefined || executable === '')
    throw new GateError('USAGE', 'missing `-- COMMAND [ARG…]` or `--url URL`');
  return { ...base, upstream: { kind: 'command', command: executable, args: rest } };
}

function parseHeader(spec: string, env: Readonly<Record<string, string | undefined>>): [string, string] {
  const eq = spec.indexOf('=');
  const name = eq === -1 ? spec : spec.slice(0, eq);
  if (eq === -1 || !headerName.test(name))
    throw new GateError('USAGE', 'option `--header` must be `NAME=VALUE` with a header name before `=`');
  // the proxy writes these from each body it forwards (MCP 2026-07-28): a fixed one could name another resource
  if (modernHeaderNames.includes(name.toLowerCase()))
    throw new GateError('USAGE', `option \`--header ${name}\` is set by the proxy from each request's body`);
  const value = spec.slice(eq + 1).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
    const found = env[variable];
    if (found === undefined)
      throw new GateError('USAGE', `option \`--header ${name}\` names \`${variable}\`, which is not set`);
    return found;
  });
  // a value with a line break could smuggle a second header
  if (/[\r\n\0]/.test(value)) throw new GateError('USAGE', `option \`--header ${name}\` has a line break in its value`);
  return [name, value];
}

function argumentMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = errorLine(error);
  const option = /'(-[^' ]+)/.exec(text)?.[1];
  if (option !== undefined && code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option \`${option}\``;
  if (option !== undefined && code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return `option \`${option}\` needs a value`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return 'unexpected argument before `--`';
  return text.charAt(0).toLowerCase() + text.slice(1);
}
