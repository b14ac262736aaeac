import { metrics, SpanStatusCode, type Histogram } from '@opentelemetry/api';
import { platformTracer, SpanKind, trace, tracingActive, type Attributes } from '@platform/telemetry';
import type { TokenCounts } from '../usage/price-table';

/** A failure's type for `error.type`: its HTTP status or its kind, never its message. */
export function genAiErrorType(failure: { kind: string; status?: number }): string {
  return failure.status ? String(failure.status) : failure.kind;
}

/** Whether the project opted in to prompts and completions on its spans (the `traceLlmContent` setting). */
export function tracesLlmContent(tenant: object): boolean {
  return tracingActive() && (tenant as { settings?: { traceLlmContent?: unknown } }).settings?.traceLlmContent === true;
}

/** One vendor attempt as the GenAI semantic conventions describe it. */
export interface GenAiCall {
  /** `chat`, `text_completion`, `embeddings`, `generate_content`...: the convention's operation names. */
  operation: string;
  /** `openai`, `anthropic`. */
  provider: string;
  requestModel: string;
  /** The model the vendor says answered (a dated snapshot), when it said. */
  responseModel?: string;
  /** `performance.now()` when the attempt began. */
  started: number;
  /** `performance.now()` when a stream's first chunk arrived. */
  firstChunkAt?: number;
  tokens: TokenCounts;
  costUsd: number | null;
  finishReasons?: string[];
  /** 1 for a request's first attempt, then 2, 3... across retries and fallbacks. */
  attempt: number;
  /** The same model again after a failure, or the next model of the chain. */
  retryOf?: 'retry' | 'fallback';
  stream: boolean;
  batchId?: string | null;
  /** Prompt and completion, only for a project whose `traceLlmContent` setting opts in. */
  content?: { input?: unknown; output?: unknown };
  /** What failed, if the attempt failed (`unreachable`, `http_429`...): never a vendor's message. */
  errorType?: string;
}

let instruments: { tokens: Histogram; duration: Histogram } | undefined;

/** The GenAI client metrics, made on first use once an SDK is registered. */
function genAiInstruments(): { tokens: Histogram; duration: Histogram } {
  if (instruments) return instruments;
  const meter = metrics.getMeter('@platform/llm');
  instruments = {
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      unit: '{token}',
      description: 'Tokens used per vendor call, by type (input, output)',
    }),
    duration: meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of a vendor call',
    }),
  };
  return instruments;
}

/**
 * Records one vendor attempt: a `{operation} {model}` client span (its own span per retry and
 * fallback, under the request's span), with the GenAI attributes, the attempt number, the cost
 * in USD and the outcome, and the GenAI client metrics. Never the prompt or the completion.
 * Every route that calls a vendor calls this once per attempt, after it ended.
 */
export function recordGenAiCall(call: GenAiCall): void {
  if (!tracingActive()) return;
  const ended = performance.now();
  const common: Attributes = {
    'gen_ai.operation.name': call.operation,
    'gen_ai.provider.name': call.provider,
    'gen_ai.request.model': call.requestModel,
    ...(call.responseModel ? { 'gen_ai.response.model': call.responseModel } : {}),
    ...(call.errorType ? { 'error.type': call.errorType } : {}),
  };
  // Inside an unsampled request the span would not be recorded: only the metrics are.
  if (trace.getActiveSpan()?.isRecording() !== false) startGenAiSpan(call, common, ended);

  const { tokens, duration } = genAiInstruments();
  duration.record((ended - call.started) / 1000, common);
  if (!call.errorType) {
    tokens.record(call.tokens.prompt, { ...common, 'gen_ai.token.type': 'input' });
    tokens.record(call.tokens.completion, { ...common, 'gen_ai.token.type': 'output' });
  }
}

function startGenAiSpan(call: GenAiCall, common: Attributes, ended: number): void {
  const span = platformTracer().startSpan(`${call.operation} ${call.requestModel}`, {
    kind: SpanKind.CLIENT,
    startTime: call.started,
    attributes: {
      ...common,
      'gen_ai.usage.input_tokens': call.tokens.prompt,
      'gen_ai.usage.output_tokens': call.tokens.completion,
      'gen_ai.usage.cache_read.input_tokens': call.tokens.cached,
      'gen_ai.usage.cache_creation.input_tokens': call.tokens.cacheWrite,
      ...(call.finishReasons?.length ? { 'gen_ai.response.finish_reasons': call.finishReasons } : {}),
      ...(call.firstChunkAt !== undefined
        ? { 'gen_ai.response.time_to_first_chunk': (call.firstChunkAt - call.started) / 1000 }
        : {}),
      'platform.llm.stream': call.stream,
      'platform.llm.attempt': call.attempt,
      ...(call.retryOf ? { 'platform.llm.attempt.kind': call.retryOf } : {}),
      ...(call.costUsd !== null ? { 'platform.llm.cost_usd': call.costUsd } : {}),
      ...(call.batchId ? { 'platform.llm.batch.id': call.batchId } : {}),
      ...(call.content?.input !== undefined ? { 'gen_ai.input.messages': JSON.stringify(call.content.input) } : {}),
      ...(call.content?.output !== undefined ? { 'gen_ai.output.messages': JSON.stringify(call.content.output) } : {}),
    },
  });
  if (call.errorType) span.setStatus({ code: SpanStatusCode.ERROR, message: call.errorType });
  span.end(ended);
}
