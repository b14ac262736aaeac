import type Stripe from 'stripe';

/** A new intent under the names clients use: nested, and Stripe's top-level fields. */
export function toPaymentIntentCreated(intent: Stripe.PaymentIntent, customer: string) {
  return {
    success: true,
    paymentIntent: {
      id: intent.id,
      client_secret: intent.client_secret,
      status: intent.status,
      amount: intent.amount,
      currency: intent.currency,
      customer,
    },
    client_secret: intent.client_secret,
    payment_intent_id: intent.id,
    status: intent.status,
  };
}

export function toPaymentIntentStatus(intent: Stripe.PaymentIntent) {
  return {
    success: true,
    paymentIntent: { id: intent.id, status: intent.status, amount: intent.amount, currency: intent.currency },
  };
}
