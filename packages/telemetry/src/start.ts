import { hostname } from 'node:os';

/** What `startTelemetry` started: flush and stop it before the process exits. */
export interface RunningTelemetry {
  shutdown(): Promise<void>;
}

export interface TelemetryIdentity {
  /** The resource's `service.name` unless OTEL_SERVICE_NAME names another. */
  service: string;
  version?: string;
}

/** Tracing is on only with an OTLP endpoint set and the SDK not disabled. */
export function telemetryWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let running: RunningTelemetry | undefined;

/**
 * Starts the OpenTelemetry Node SDK, configured by the standard OTEL_* variables only. Without an
 * endpoint nothing is loaded: the API the packages call stays its no-op, so tracing off costs
 * nothing. Call it before the first request, database or broker connection is made.
 */
export function startTelemetry(
  identity: TelemetryIdentity,
  env: NodeJS.ProcessEnv = process.env,
): RunningTelemetry | undefined {
  if (running || !telemetryWanted(env)) return running;
  // Loaded on demand: the SDK and its instrumentations are not even required when tracing is off.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startNodeSdk } = require('./node-sdk') as typeof import('./node-sdk');
  running = startNodeSdk(
    {
      service: env.OTEL_SERVICE_NAME || identity.service,
      version: identity.version ?? env.SERVICE_VERSION ?? '0.1.0',
      environment: env.NODE_ENV ?? 'development',
      // The pod name in Kubernetes, the container id in Compose.
      replica: env.HOSTNAME || hostname(),
    },
    env,
  );
  return running;
}

/** Flushes what is buffered and stops the SDK (a no-op when tracing is off). */
export async function stopTelemetry(): Promise<void> {
  const stopping = running;
  running = undefined;
  await stopping?.shutdown();
}
