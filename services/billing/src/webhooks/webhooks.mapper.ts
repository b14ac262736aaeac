import type Stripe from 'stripe';

export interface WebhookReceived {
  received: true;
  /** The event id was processed before; nothing changed. */
  duplicate: boolean;
  id: string;
  type: string;
}

export function toWebhookReceived(event: Pick<Stripe.Event, 'id' | 'type'>, duplicate: boolean): WebhookReceived {
  return { received: true, duplicate, id: event.id, type: event.type };
}
