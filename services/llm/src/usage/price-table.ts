/**
 * What each model costs, in USD per million tokens, as the vendors list it. A new price is a new
 * version of the table: logs keep the cost computed when they were written.
 */
export const PRICE_TABLE_VERSION = '2025-11-01';

export interface ModelPrice {
  input: number;
  output: number;
  /** Prompt tokens read from the vendor's cache (OpenAI cached input, Anthropic cache read). */
  cachedInput: number;
  /** Prompt tokens written to the cache (Anthropic only; OpenAI caches for free). */
  cacheWrite: number;
}

const openai = (input: number, cachedInput: number, output: number): ModelPrice => ({
  input,
  output,
  cachedInput,
  cacheWrite: input,
});
// Anthropic: a 5-minute cache write is 1.25x input, a cache read 0.1x.
const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cachedInput: input * 0.1,
  cacheWrite: input * 1.25,
});

export const PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-5': openai(1.25, 0.125, 10),
  'gpt-5-mini': openai(0.25, 0.025, 2),
  'gpt-5-nano': openai(0.05, 0.005, 0.4),
  'gpt-4.1': openai(2, 0.5, 8),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'gpt-4o': openai(2.5, 1.25, 10),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6),
  'chatgpt-4o-latest': openai(5, 5, 15),
  o1: openai(15, 7.5, 60),
  'o1-mini': openai(1.1, 0.55, 4.4),
  o3: openai(2, 0.5, 8),
  'o3-mini': openai(1.1, 0.55, 4.4),
  'o4-mini': openai(1.1, 0.275, 4.4),
  // Embedding models: input tokens only.
  'text-embedding-3-small': openai(0.02, 0.02, 0),
  'text-embedding-3-large': openai(0.13, 0.13, 0),
  'text-embedding-ada-002': openai(0.1, 0.1, 0),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
});

// A dated snapshot (gpt-4o-mini-2024-07-18, claude-sonnet-4-5-20250929) or -latest costs what its model costs.
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The price of a model or of a dated snapshot of it; undefined for a model the table does not know. */
export function priceOf(model: string): ModelPrice | undefined {
  if (Object.hasOwn(PRICES, model)) return PRICES[model];
  const base = model.replace(SNAPSHOT, '');
  return base !== model && Object.hasOwn(PRICES, base) ? PRICES[base] : undefined;
}

export interface TokenCounts {
  /** All prompt tokens, cached ones included (OpenAI's prompt_tokens). */
  prompt: number;
  completion: number;
  /** Of `prompt`: read from the cache. */
  cached: number;
  /** Of `prompt`: written to the cache. */
  cacheWrite: number;
}

/** USD for a call's tokens, or null when the model has no price (never a made-up 0). */
export function costOf(model: string, tokens: TokenCounts): number | null {
  const price = priceOf(model);
  if (!price) return null;
  const uncached = Math.max(0, tokens.prompt - tokens.cached - tokens.cacheWrite);
  const micro =
    uncached * price.input +
    tokens.cached * price.cachedInput +
    tokens.cacheWrite * price.cacheWrite +
    tokens.completion * price.output;
  // Ten decimals, as stored: a token of the cheapest model costs 5e-8 USD.
  return Math.round(micro * 1e4) / 1e10;
}

/**
 * The metered part of a vendor call's log entry: its cost (0 for a call that used no tokens, null
 * for a model without a price) and its cache tokens. Whole completions, batch items and gateway
 * attempts all log through this.
 */
export function meteredUsage(model: string, tokens: TokenCounts) {
  return {
    costUsd: tokens.prompt + tokens.completion === 0 ? 0 : costOf(model, tokens),
    cachedTokens: tokens.cached,
    cacheWriteTokens: tokens.cacheWrite,
  };
}
