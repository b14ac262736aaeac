import Anthropic from '@anthropic-ai/sdk';
import type { MessagesEvent, MessagesEventStream } from '../messages/messages-events';
import type { TokenCounts } from '../usage/price-table';
import { addUsage, type AnthropicUsage } from './anthropic-chat';
import { zeroTokens } from './chat-types';
import { serverSentEvents } from './server-sent-events';
import { StreamCutError } from './vendor-errors';

/** Anthropic's own Messages API, the request and its answer as they are (the gateway's /messages for Claude). */
export interface AnthropicMessagesApi {
  /** `beta`: the client's `anthropic-beta` header, passed on. */
  create(
    body: Anthropic.MessageCreateParamsNonStreaming,
    signal?: AbortSignal,
    beta?: string,
  ): Promise<{ message: Anthropic.Message; tokens: TokenCounts }>;
  /** Resolves once Anthropic has accepted the request; the events are Anthropic's own. */
  stream(
    body: Anthropic.MessageCreateParamsNonStreaming,
    signal?: AbortSignal,
    beta?: string,
  ): Promise<MessagesEventStream>;
}

// The gateway retries and falls back itself, so each SDK call is one attempt.
const oneAttempt = (signal?: AbortSignal, beta?: string) => ({
  maxRetries: 0,
  signal,
  ...(beta ? { headers: { 'anthropic-beta': beta } } : {}),
});

/** The events whose data tells usage or an error: the only ones read past their name. */
const READ = new Set(['message_start', 'message_delta', 'error']);

/**
 * The SDK sends the request and raises Anthropic's errors; a stream's events are read from its
 * raw response by our reader and passed on as they came, usage taken from message_start and
 * message_delta, Anthropic's error event raised as the SDK raises it.
 */
export function anthropicMessages(client: Anthropic): AnthropicMessagesApi {
  return {
    async create(body, signal, beta) {
      const message = await client.messages.create(body, oneAttempt(signal, beta));
      const tokens = zeroTokens();
      addUsage(tokens, message.usage);
      return { message, tokens };
    },
    async stream(body, signal, beta) {
      const response = await client.messages.create({ ...body, stream: true }, oneAttempt(signal, beta)).asResponse();
      if (!response.body) throw new StreamCutError();
      const raw = response.body as unknown as AsyncIterable<Uint8Array>;
      const tokens = zeroTokens();
      // A rough prompt size (about 4 characters a token) for a stream cut off before Anthropic said.
      tokens.prompt = Math.ceil(JSON.stringify([body.system ?? '', body.messages]).length / 4);
      let exact = false;
      return {
        get tokens() {
          return tokens;
        },
        get exact() {
          return exact;
        },
        async *[Symbol.asyncIterator](): AsyncGenerator<MessagesEvent> {
          let finished = false;
          for await (const { event, data } of serverSentEvents(raw)) {
            const name = event ?? 'message';
            if (READ.has(name)) {
              const parsed = JSON.parse(data) as {
                message?: { usage?: AnthropicUsage };
                usage?: AnthropicUsage;
                error?: object;
              };
              if (name === 'error') throw new Anthropic.APIError(undefined, parsed, undefined, response.headers);
              addUsage(tokens, parsed.message?.usage ?? parsed.usage);
              if (name === 'message_delta') exact = true;
            } else if (name === 'content_block_delta' && !exact) tokens.completion++;
            else if (name === 'message_stop') finished = true;
            yield { event: name, data };
          }
          if (!finished) throw new StreamCutError();
        },
      };
    },
  };
}
