import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { AppError, errors } from '@platform/tenancy';

export type VendorFailureKind = 'vendor' | 'unreachable' | 'aborted';

export interface VendorFailure {
  kind: VendorFailureKind;
  /** The vendor's own message with the key scrubbed out; safe to return and log. */
  message: string;
  status?: number;
}

const KEY_LIKE = /\b(sk|sk-ant|sk-proj)[-_][A-Za-z0-9_\-*.]{6,}/g;

/** Removes the project's key, and anything shaped like a key, from a vendor message. */
export function scrubSecret(message: string, apiKey?: string): string {
  let out = message;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[REDACTED]');
  return out.replace(KEY_LIKE, '[REDACTED]').slice(0, 1000);
}

function bodyMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as { message?: unknown; error?: { message?: unknown } };
  // OpenAI's SDK keeps the inner `error` object; Anthropic's keeps the whole `{type, error}` body.
  if (typeof record.error?.message === 'string') return record.error.message;
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

/** A vendor stream that ended before its end (OpenAI's finish reason, Anthropic's message_stop): the connection broke. */
export class StreamCutError extends Error {
  constructor() {
    super('The vendor stream ended before its end');
  }
}

/** What went wrong in a vendor call, in terms the API and the logs share. */
export function describeVendorFailure(error: unknown, apiKey?: string): VendorFailure {
  if (error instanceof StreamCutError) return { kind: 'unreachable', message: error.message };
  if (error instanceof OpenAI.APIUserAbortError || error instanceof Anthropic.APIUserAbortError) {
    return { kind: 'aborted', message: 'Request aborted' };
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError || error instanceof Anthropic.APIConnectionTimeoutError) {
    return { kind: 'unreachable', message: 'Vendor did not answer in time' };
  }
  if (error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError) {
    return { kind: 'unreachable', message: 'Vendor could not be reached' };
  }
  if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const message = bodyMessage(error.error) ?? error.message ?? 'Vendor error';
    return { kind: 'vendor', status, message: scrubSecret(status ? `${status} ${message}` : message, apiKey) };
  }
  if (error instanceof OpenAI.OpenAIError || error instanceof Anthropic.AnthropicError) {
    return { kind: 'vendor', message: scrubSecret(error.message, apiKey) };
  }
  throw error;
}

/** The API error for a failed vendor call: 500 VENDOR_ERROR with the vendor's message, 502 when unreachable. */
export function vendorAppError(failure: VendorFailure): AppError {
  return failure.kind === 'unreachable' ? errors.vendorUnreachable(failure.message) : errors.vendor(failure.message);
}
