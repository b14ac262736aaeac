import type OpenAI from 'openai';
import type { TokenCounts } from '../usage/price-table';
import { serverSentEvents } from './server-sent-events';
import { StreamCutError } from './vendor-errors';

/** A Responses request as the gateway passes it on to OpenAI (`stream` decided per call). */
export type ResponsesRequest = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'> & { model: string };

/** One Responses event as it goes to the client: its type and its JSON, sent as received. */
export interface ResponsesEvent {
  type: string;
  json: string;
}

/**
 * A stream of Responses events. `tokens` grows as the stream goes (each delta a token until the
 * vendor reports its usage, then `exact`); `failure` is the vendor's own failure event, if any.
 */
export interface ResponsesStream extends AsyncIterable<ResponsesEvent> {
  readonly tokens: TokenCounts;
  readonly exact: boolean;
  readonly failure: string | null;
}

export interface ResponsesResult {
  response: OpenAI.Responses.Response;
  tokens: TokenCounts;
}

type Usage = OpenAI.Responses.ResponseUsage | null | undefined;

function tokensOf(usage: Usage): TokenCounts {
  return {
    prompt: usage?.input_tokens ?? 0,
    completion: usage?.output_tokens ?? 0,
    cached: usage?.input_tokens_details?.cached_tokens ?? 0,
    cacheWrite: 0,
  };
}

// The gateway retries and falls back itself, so each SDK call is one attempt.
const ONE_ATTEMPT = { maxRetries: 0 } as const;

export async function openAiResponse(
  client: OpenAI,
  request: ResponsesRequest,
  signal?: AbortSignal,
): Promise<ResponsesResult> {
  const response = await client.responses.create({ ...request, stream: false }, { ...ONE_ATTEMPT, signal });
  return { response, tokens: tokensOf(response.usage) };
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const DELTAS = new Set([
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.refusal.delta',
]);

/**
 * OpenAI's Responses events, relayed as they come (read off the SDK's raw response like the chat
 * stream). The terminal event carries the usage; a `response.failed` or `error` event is the
 * vendor's failure, relayed too.
 */
export async function openAiResponseStream(
  client: OpenAI,
  request: ResponsesRequest,
  estimatedPrompt: number,
  signal?: AbortSignal,
): Promise<ResponsesStream> {
  const response = await client.responses.create({ ...request, stream: true }, { ...ONE_ATTEMPT, signal }).asResponse();
  if (!response.body) throw new StreamCutError();
  const body = response.body as unknown as AsyncIterable<Uint8Array>;
  const tokens: TokenCounts = { prompt: estimatedPrompt, completion: 0, cached: 0, cacheWrite: 0 };
  let exact = false;
  let failure: string | null = null;
  return {
    get tokens() {
      return tokens;
    },
    get exact() {
      return exact;
    },
    get failure() {
      return failure;
    },
    async *[Symbol.asyncIterator]() {
      let ended = false;
      for await (const { event, data } of serverSentEvents(body)) {
        if (ended) continue; // read to the end, so that the connection goes back to the pool
        const parsed = JSON.parse(data) as {
          type?: string;
          message?: string;
          error?: { message?: string } | null;
          response?: { usage?: Usage; error?: { message?: string } | null };
        };
        const type = parsed.type ?? event ?? 'message';
        if (DELTAS.has(type) && !exact) tokens.completion++;
        if (TERMINAL.has(type)) {
          ended = true;
          if (parsed.response?.usage) {
            Object.assign(tokens, tokensOf(parsed.response.usage));
            exact = true;
          }
          if (type === 'response.failed') failure = parsed.response?.error?.message ?? 'The response failed';
        }
        if (type === 'error') {
          ended = true;
          failure = parsed.message ?? parsed.error?.message ?? 'The vendor stream failed';
        }
        yield { type, json: data };
      }
      if (!ended) throw new StreamCutError();
    },
  };
}
