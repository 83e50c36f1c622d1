import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { startTelemetry, telemetrySdkPackage } from '../../src/cli/start-telemetry.ts';
import { GateError } from '../../src/errors.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('startTelemetry', () => {
  test('a missing optional peer is a usage error that names the package to install', async () => {
    const missing = Object.assign(new Error("Cannot find package '@opentelemetry/sdk-node'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const started = startTelemetry({ stdoutReserved: true, load: () => Promise.reject(missing) });
    await expect(started).rejects.toBeInstanceOf(GateError);
    await expect(started).rejects.toThrow(`npm install ${telemetrySdkPackage}`);
  });

  test('any other load failure is passed on unchanged', async () => {
    const broken = new SyntaxError('unexpected token');
    await expect(startTelemetry({ stdoutReserved: true, load: () => Promise.reject(broken) })).rejects.toBe(broken);
  });

  test('the real SDK exports a link span from the environment, and never onto a reserved stdout', async () => {
    const script = [
      `import { startTelemetry } from ${JSON.stringify(path.join(repoRoot, 'src/cli/start-telemetry.ts'))};`,
      `import { emitLinkTelemetry } from ${JSON.stringify(path.join(repoRoot, 'src/record/link-telemetry.ts'))};`,
      'const handle = await startTelemetry({ stdoutReserved: true });',
      'const at = new Date().toISOString();',
      'const policy = { id: "p", version: "1", digest: "sha256:00" };',
      'emitLinkTelemetry({ uri: "demo://x", verdict: "link-only", next: null,',
      '  stages: { discovered: { at, tool: "t", responseId: 1, contentIndex: 0, contentType: "resource_link",',
      '    uri: "demo://x", mimeType: null, size: null, server: "s", protocolVersion: null, client: null, serverInfo: null },',
      '    requested: null, received: null, delivered: null },',
      '  decisions: { link: { effect: "deny", reasons: [{ code: "uri.scheme-not-allowed", rule: "r", stage: "link", message: "m" }], policy }, read: null } });',
      'await handle.shutdown();',
    ].join('\n');
    const env = {
      ...process.env,
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_SERVICE_NAME: 'linkgate-test',
    };
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      env,
    });
    expect(stdout).toBe('');
    expect(stderr).toContain("name: 'linkgate.link'");
    expect(stderr).toContain('uri.scheme-not-allowed');
  }, 30_000);
});
