import { GateError } from '../errors.ts';

/** The optional peer that `--otel` starts; not a dependency, so a production install stays without it. */
export const telemetrySdkPackage = '@opentelemetry/sdk-node';

/** A started OpenTelemetry SDK; `shutdown` flushes every exporter and ends the SDK. */
export interface TelemetryHandle {
  shutdown(): Promise<void>;
}

/** How `startTelemetry` starts the SDK. */
export interface StartTelemetryOptions {
  /** the front end speaks JSON-RPC on stdout (proxy, hook): console output of exporters goes to stderr */
  stdoutReserved: boolean;
  /** loads the SDK module (tests pass their own); default a dynamic import of `telemetrySdkPackage` */
  load?: () => Promise<unknown>;
}

interface NodeSdkModule {
  NodeSDK: new (config: { serviceName?: string }) => { start(): void; shutdown(): Promise<void> };
}

/**
 * Starts the OpenTelemetry Node SDK configured from the standard `OTEL_*` environment variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_TRACES_EXPORTER`, …); fails with a usage error naming the package to
 * install when the optional peer is missing.
 */
export async function startTelemetry(options: StartTelemetryOptions): Promise<TelemetryHandle> {
  const load = options.load ?? (() => import(telemetrySdkPackage));
  let loaded: unknown;
  try {
    loaded = await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new GateError(
        'USAGE',
        `\`--otel\` needs the optional peer \`${telemetrySdkPackage}\`, which is not installed: npm install ${telemetrySdkPackage}`,
        { cause: error },
      );
    }
    throw error;
  }
  const { NodeSDK } = loaded as NodeSdkModule;
  if (typeof NodeSDK !== 'function') {
    throw new GateError('USAGE', `\`${telemetrySdkPackage}\` does not export \`NodeSDK\`: install a 0.2xx version`);
  }
  // a console exporter must not write into the JSON-RPC stream on stdout
  if (options.stdoutReserved) routeConsoleToStderr();
  const sdk = new NodeSDK(process.env['OTEL_SERVICE_NAME'] === undefined ? { serviceName: 'linkgate' } : {});
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

function routeConsoleToStderr(): void {
  const toStderr = new console.Console({ stdout: process.stderr, stderr: process.stderr });
  console.log = toStderr.log.bind(toStderr);
  console.info = toStderr.info.bind(toStderr);
  console.debug = toStderr.debug.bind(toStderr);
  console.dir = toStderr.dir.bind(toStderr);
  console.table = toStderr.table.bind(toStderr);
}
