import type Stripe from 'stripe';

/** Stripe may leave `return_url` out of its answer; the one asked for is then returned. */
export function toPortalCreated(session: Stripe.BillingPortal.Session, returnUrl: string) {
  return {
    success: true,
    session: {
      id: session.id,
      url: session.url,
      customer: session.customer,
      return_url: session.return_url ?? returnUrl,
    },
  };
}
