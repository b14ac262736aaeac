import type { AccessTokenClaims } from '@platform/tenancy';
import { errors } from '@platform/tenancy';
import { isTaggedForUser, taggedMetadata } from '../customers/customer.mapper';
import { customerForUser } from '../customers/user-customer.service';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { callStripe } from '../stripe/stripe-errors';
import type { CreateCheckoutInput } from './checkout.schemas';

type User = Pick<AccessTokenClaims, 'userId' | 'email'>;

/** A hosted checkout page for the signed-in user, who is (or becomes) the Stripe customer. */
export async function createCheckoutSession(ctx: BillingContext, scope: Scope, user: User, input: CreateCheckoutInput) {
  const { stripe } = await ctx.clients.require(scope);
  const customer = await customerForUser(ctx, scope, stripe, user, input.customer_email);
  const tags = taggedMetadata(scope, input.metadata, { userId: user.userId });
  const session = await callStripe(scope.environment, () =>
    stripe.checkout.sessions.create({
      mode: input.mode,
      line_items: input.line_items,
      success_url: input.success_url,
      cancel_url: input.cancel_url,
      customer,
      client_reference_id: user.userId,
      metadata: tags,
      allow_promotion_codes: input.allow_promotion_codes,
      billing_address_collection: input.billing_address_collection,
      // Tag what the session creates too, so webhooks can tell whose it is.
      ...(input.mode === 'subscription' ? { subscription_data: { metadata: tags } } : {}),
      ...(input.mode === 'payment' ? { payment_intent_data: { metadata: tags } } : {}),
    }),
  );
  return {
    success: true,
    session: {
      id: session.id,
      url: session.url,
      customer: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? customer),
      mode: session.mode,
    },
  };
}

/** A session the signed-in user started in this project (by the tags set at creation); any other is 404. */
export async function getCheckoutSession(ctx: BillingContext, scope: Scope, user: User, id: string) {
  const { stripe } = await ctx.clients.require(scope);
  const session = await callStripe(scope.environment, () => stripe.checkout.sessions.retrieve(id));
  if (!isTaggedForUser(scope, user.userId, session.metadata)) throw errors.notFound('Checkout session');
  return {
    success: true,
    session: {
      id: session.id,
      status: session.status,
      payment_status: session.payment_status,
      mode: session.mode,
      customer: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
      url: session.url ?? null,
    },
  };
}
