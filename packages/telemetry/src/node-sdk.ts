import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { createNoopMeter, type MeterProvider } from '@opentelemetry/api';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { RunningTelemetry } from './start';
import { QueryScrubber } from './scrub-processor';
import { passOverUnsampledFetch, passOverUnsampledRequest } from './unsampled-calls';

export interface SdkIdentity {
  service: string;
  version: string;
  environment: string;
  replica: string;
}

/**
 * OTEL_EXPORTER_OTLP_PROTOCOL picks the wire format (http/protobuf by default, http/json); the
 * exporters read the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables.
 */
function traceExporterFromEnv(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim();
  return protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtoTraceExporter();
}

/** What the HTTP and fetch instrumentations would record: their duration metrics repeat the Prometheus endpoint's. */
const NO_METRICS: MeterProvider = { getMeter: () => createNoopMeter() };

/**
 * The SDK with what the services use: node:http (webhooks, SDKs on http) and undici (fetch: the
 * vendor SDKs, service-to-service calls), for outgoing calls inside a trace. Server spans are the
 * HTTP stack's (`traceRequests`); Postgres, the outbox and the bus are traced by the platform's
 * own packages (they know the route, the table, the event and the consumer). Exporter, protocol,
 * sampler, propagators and resource attributes come from the OTEL_* variables.
 */
export function startNodeSdk(identity: SdkIdentity, env: NodeJS.ProcessEnv): RunningTelemetry {
  const instrumentations = [
    // A client span only inside a sampled trace: not for a poll or a probe, nor an unsampled request's calls.
    new HttpInstrumentation({
      disableIncomingRequestInstrumentation: true,
      requireParentforOutgoingSpans: true,
      ignoreOutgoingRequestHook: passOverUnsampledRequest,
    }),
    new UndiciInstrumentation({ requireParentforSpans: true, ignoreRequestHook: passOverUnsampledFetch }),
  ];
  const sdk = new NodeSDK({
    // The sampler comes from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, the batching from OTEL_BSP_*.
    spanProcessors: [new QueryScrubber(), new BatchSpanProcessor(traceExporterFromEnv(env))],
    serviceName: identity.service,
    // Detected attributes (OTEL_RESOURCE_ATTRIBUTES, host, process) are merged over these.
    resource: resourceFromAttributes({
      [ATTR_SERVICE_VERSION]: identity.version,
      'service.namespace': 'platform',
      'service.instance.id': identity.replica,
      'deployment.environment.name': identity.environment,
    }),
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
  for (const instrumentation of instrumentations) instrumentation.setMeterProvider(NO_METRICS);
  // The instrumentation patches node:http when it is next required: the services' modules
  // (express, the SDKs) have loaded it already, so it is required again here, once.
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('node:http');
  require('node:https');
  require('http');
  require('https');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { shutdown: () => sdk.shutdown() };
}
