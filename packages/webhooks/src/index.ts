export { assertTargetAllowed, guardedLookup, isPrivateAddress, WebhookRefusedError } from './ssrf-guard';
export { signWebhook, verifyWebhookSignature } from './webhook-signature';
export { postWebhook, WebhookDeadlineError, type PostWebhookOptions, type WebhookResponse } from './webhook-sender';
export { DeliverySlots } from './delivery-slots';
export {
  attemptSignedDelivery,
  nextAttemptAt,
  parseRetryDelays,
  type AttemptOutcome,
  type AttemptResult,
  type SignedDelivery,
} from './delivery-attempt';
export { attemptHandled, markAttemptHandled } from './handled-attempts';
