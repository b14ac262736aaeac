import {
  context,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

export { SpanKind, context, trace, type Attributes, type Context, type Span };

/** W3C trace context as it travels in headers, an outbox row or an event envelope. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate().constructor;

/**
 * Whether an SDK is registered (startTelemetry, or a test's provider). Hooks that would cost
 * something per query or per message (database listeners) are installed only then.
 */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider();
  const delegate = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  return !(delegate instanceof NOOP_PROVIDER);
}

/** The platform's tracer: spans the packages make themselves (database, outbox, bus, LLM calls). */
export function platformTracer(): Tracer {
  return trace.getTracer('@platform/telemetry', '0.1.0');
}

/** Whether a sampled or unsampled trace is going on here (outside one, the packages start no span). */
export function inTrace(active: Context = context.active()): boolean {
  return trace.getSpan(active) !== undefined;
}

/**
 * Whether the trace going on here is sampled (its span records). Child spans of an unsampled
 * trace would be dropped by the sampler anyway: the packages skip building them.
 */
export function inRecordedTrace(active: Context = context.active()): boolean {
  return trace.getSpan(active)?.isRecording() === true;
}

/** The current trace context as `traceparent`/`tracestate`, or undefined outside a trace. */
export function currentTraceCarrier(active: Context = context.active()): TraceCarrier | undefined {
  if (!inTrace(active)) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier.traceparent ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : undefined;
}

/** The context a carrier describes (a root context for none). */
export function contextOfCarrier(carrier: TraceCarrier | undefined): Context {
  if (!carrier?.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** The error's code (an AppError's, a Postgres SQLSTATE, a system error) or its class name. */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return (error as Error | null)?.name ?? 'Error';
}

/**
 * Marks a span failed with the error's code. The message is not recorded: database and vendor
 * messages may quote the values of a statement or a request.
 */
export function recordFailure(span: Span, error: unknown): void {
  const code = errorCodeOf(error);
  span.setAttribute('error.type', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/** Runs `work` in a span of its own (a child of the current one), ending it with the outcome. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = platformTracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** `trace_id` and `span_id` of the span going on, for a log line; undefined outside a trace. */
export function logTraceFields(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
