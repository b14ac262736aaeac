import { WebhookRefusedError } from './ssrf-guard';
import { postWebhook, type PostWebhookOptions } from './webhook-sender';
import { standardWebhookHeaders } from './standard-webhooks';
import { signWebhook } from './webhook-signature';

export type AttemptOutcome = 'delivered' | 'failed' | 'refused';

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SignedDelivery {
  url: string;
  /** The exact bytes signed and sent; the same on every attempt of one webhook. */
  body: string;
  /** X-Webhook-Id: one per webhook, kept across its retries so receivers can drop repeats. */
  webhookId: string;
  attempt: number;
  /** The project's webhook secret; null refuses the delivery (nothing to sign with). */
  secret: string | null;
  userAgent: string;
}

/**
 * One signed attempt: the RESOLUTIONS 6 headers (Stripe-style `X-Webhook-Signature`) and the Standard
 * Webhooks ones (`webhook-id`, `webhook-timestamp`, `webhook-signature`). A 2xx is delivered; another status, a network
 * error or a missed deadline is failed (retried by the caller's policy); an SSRF refusal or a
 * missing secret is refused (never retried).
 */
export async function attemptSignedDelivery(
  delivery: SignedDelivery,
  options: PostWebhookOptions,
): Promise<AttemptResult> {
  if (!delivery.secret) {
    return { outcome: 'refused', statusCode: null, error: 'project has no webhook secret', durationMs: 0 };
  }
  // Both schemes sign the same instant, so a receiver sees one time whichever it checks.
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await postWebhook(
      delivery.url,
      delivery.body,
      {
        'x-webhook-signature': signWebhook(delivery.secret, delivery.body, timestamp),
        ...standardWebhookHeaders(delivery.secret, delivery.webhookId, delivery.body, timestamp),
        'x-webhook-id': delivery.webhookId,
        'x-webhook-attempt': String(delivery.attempt),
        'user-agent': delivery.userAgent,
      },
      options,
    );
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return { outcome: 'delivered', statusCode: response.statusCode, error: null, durationMs: elapsed() };
    }
    return {
      outcome: 'failed',
      statusCode: response.statusCode,
      error: `receiver answered ${response.statusCode}`,
      durationMs: elapsed(),
    };
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    const outcome = error instanceof WebhookRefusedError ? 'refused' : 'failed';
    return { outcome, statusCode: null, error: message, durationMs: elapsed() };
  }
}

/** When the attempt after `attempt` is due, or null when `delays` (one per retry) are used up. */
export function nextAttemptAt(delaysMs: number[], attempt: number, now = Date.now()): Date | null {
  return attempt <= delaysMs.length ? new Date(now + delaysMs[attempt - 1]) : null;
}

/** "60000,240000" -> [60000, 240000]: the retry delays as configuration spells them. */
export function parseRetryDelays(text: string): number[] {
  return text.split(',').map(Number);
}
