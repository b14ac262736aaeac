import type Stripe from 'stripe';

const customerIdOf = (customer: Stripe.Checkout.Session['customer']): string | null =>
  typeof customer === 'string' ? customer : (customer?.id ?? null);

/** A new session: the page to send the user to, and the customer it charges. */
export function toCheckoutCreated(session: Stripe.Checkout.Session, customer: string) {
  return {
    success: true,
    session: {
      id: session.id,
      url: session.url,
      customer: customerIdOf(session.customer) ?? customer,
      mode: session.mode,
    },
  };
}

export function toCheckoutStatus(session: Stripe.Checkout.Session) {
  return {
    success: true,
    session: {
      id: session.id,
      status: session.status,
      payment_status: session.payment_status,
      mode: session.mode,
      customer: customerIdOf(session.customer),
      url: session.url ?? null,
    },
  };
}
