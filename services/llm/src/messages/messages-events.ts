import type { TokenCounts } from '../usage/price-table';

/** One server-sent event of Anthropic's Messages stream, its data as JSON text. */
export interface MessagesEvent {
  event: string;
  data: string;
}

/**
 * A vendor stream as Anthropic's Messages events. `tokens` grows as the stream goes, so a stream
 * cut short still tells what it used; `exact` turns true once the vendor has reported its usage.
 */
export interface MessagesEventStream extends AsyncIterable<MessagesEvent> {
  readonly tokens: TokenCounts;
  readonly exact: boolean;
}

/** An event as Anthropic writes it: its `type` in the data too. */
export const messagesEvent = (type: string, data: object = {}): MessagesEvent => ({
  event: type,
  data: JSON.stringify({ type, ...data }),
});

/** Anthropic's usage object from our token counts (its input leaves out what the cache read or wrote). */
export function anthropicUsage(tokens: TokenCounts): {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
} {
  return {
    input_tokens: Math.max(0, tokens.prompt - tokens.cached - tokens.cacheWrite),
    output_tokens: tokens.completion,
    cache_read_input_tokens: tokens.cached,
    cache_creation_input_tokens: tokens.cacheWrite,
  };
}
