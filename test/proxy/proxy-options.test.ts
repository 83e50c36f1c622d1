import { describe, expect, test } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { parseProxyArgs } from '../../src/proxy/proxy-options.ts';

const env = { TOKEN: 's3cret' };

describe('parseProxyArgs', () => {
  test('a command after `--`, with defaults', () => {
    expect(parseProxyArgs(['--policy', 'p.yaml', '--', 'npx', '-y', 'server', '--flag'], env)).toEqual({
      policy: 'p.yaml',
      server: 'default',
      records: null,
      mode: 'enforce',
      onRecordError: 'withhold',
      otel: false,
      upstream: { kind: 'command', command: 'npx', args: ['-y', 'server', '--flag'] },
    });
  });

  test('a url with headers; `${NAME}` is filled from the environment', () => {
    const options = parseProxyArgs(
      [
        '--policy',
        'p.yaml',
        '--mode',
        'observe',
        '--otel',
        '--server',
        'docs',
        '--records',
        'r.jsonl',
        '--url',
        'https://mcp.example.com/mcp',
        '--header',
        'Authorization=Bearer ${TOKEN}',
        '--header',
        'X-Team=a=b',
      ],
      env,
    );
    expect(options).toEqual({
      policy: 'p.yaml',
      server: 'docs',
      records: 'r.jsonl',
      mode: 'observe',
      onRecordError: 'withhold',
      otel: true,
      upstream: {
        kind: 'url',
        url: 'https://mcp.example.com/mcp',
        headers: [
          ['Authorization', 'Bearer s3cret'],
          ['X-Team', 'a=b'],
        ],
      },
    });
  });

  test('--help', () => {
    expect(parseProxyArgs(['--help'], env)).toBe('help');
  });

  test.each([
    [[], 'missing `--policy FILE`'],
    [['--policy', 'p.yaml'], 'missing `-- COMMAND [ARG…]` or `--url URL`'],
    [
      ['--policy', 'p.yaml', '--mode', 'audit', '--', 'x'],
      'option `--mode` must be `enforce` or `observe`, not `audit`',
    ],
    [
      ['--policy', 'p.yaml', '--url', 'https://a.example', '--', 'x'],
      'give either `--url URL` or `-- COMMAND`, not both',
    ],
    [['--policy', 'p.yaml', '--header', 'A=b', '--', 'x'], 'option `--header` needs `--url URL`'],
    [
      ['--policy', 'p.yaml', '--url', 'https://a.example', '--header', 'no-equals'],
      'option `--header` must be `NAME=VALUE` with a header name before `=`',
    ],
    [
      ['--policy', 'p.yaml', '--url', 'https://a.example', '--header', 'Bad Name=x'],
      'option `--header` must be `NAME=VALUE` with a header name before `=`',
    ],
    [
      ['--policy', 'p.yaml', '--url', 'https://a.example', '--header', 'A=${MISSING}'],
      'option `--header A` names `MISSING`, which is not set',
    ],
    [
      ['--policy', 'p.yaml', '--url', 'https://a.example', '--header', 'A=x\r\nB: y'],
      'option `--header A` has a line break in its value',
    ],
    [['--policy', 'p.yaml', '--bogus', '--', 'x'], 'unknown option `--bogus`'],
    [['--policy', 'p.yaml', '--server', '', '--', 'x'], 'option `--server` needs a non-empty id'],
  ])('%j → usage error', (args, message) => {
    let thrown: unknown;
    try {
      parseProxyArgs(args, env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GateError);
    expect({ code: (thrown as GateError).code, message: (thrown as GateError).message }).toEqual({
      code: 'USAGE',
      message,
    });
  });
});
