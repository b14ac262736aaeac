export { assertTargetAllowed, guardedLookup, WebhookRefusedError } from './ssrf-guard';
export { signWebhook, verifyWebhookSignature } from './webhook-signature';
export { standardWebhookHeaders, standardWebhookKey, standardWebhookSecret } from './standard-webhooks';
export { postWebhook, type PostWebhookOptions, type WebhookResponse } from './webhook-sender';
export {
  attemptSignedDelivery,
  nextAttemptAt,
  parseRetryDelays,
  type AttemptOutcome,
  type AttemptResult,
  type SignedDelivery,
} from './delivery-attempt';
export {
  startWebhookConsumer,
  type PendingAttempt,
  type WebhookConsumer,
  type WebhookConsumerDeps,
} from './webhook-consumer';
