export { traceRequests } from './request-spans';
export { startTelemetry, stopTelemetry, telemetryWanted, type RunningTelemetry, type TelemetryIdentity } from './start';
export {
  SpanKind,
  context,
  contextOfCarrier,
  currentTraceCarrier,
  errorCodeOf,
  inRecordedTrace,
  inSpan,
  inTrace,
  logTraceFields,
  platformTracer,
  recordFailure,
  trace,
  tracingActive,
  type Attributes,
  type Context,
  type Span,
  type TraceCarrier,
} from './tracing';
