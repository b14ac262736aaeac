import type { AccessTokenClaims } from '@platform/tenancy';
import { errors } from '@platform/tenancy';
import { isTaggedForUser, taggedMetadata } from '../customers/customer.mapper';
import { assertUserCustomer } from '../customers/customers.service';
import { customerForUser } from '../customers/user-customer.service';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { callStripe } from '../stripe/stripe-errors';
import type { CreatePaymentIntentInput } from './payment-intents.schemas';

type User = Pick<AccessTokenClaims, 'userId' | 'email'>;

/** A payment intent for the signed-in user's customer (named or not; 404 for any other). */
export async function createPaymentIntent(
  ctx: BillingContext,
  scope: Scope,
  user: User,
  input: CreatePaymentIntentInput,
) {
  const { stripe } = await ctx.clients.require(scope);
  if (input.customer) await assertUserCustomer(ctx, scope, user.userId, input.customer);
  const customer = input.customer ?? (await customerForUser(ctx, scope, stripe, user));
  const intent = await callStripe(scope.environment, () =>
    stripe.paymentIntents.create({
      amount: input.amount,
      currency: input.currency,
      customer,
      description: input.description,
      metadata: taggedMetadata(scope, input.metadata, { userId: user.userId }),
      payment_method_types: input.payment_method_types,
      receipt_email: input.receipt_email,
      setup_future_usage: input.setup_future_usage,
    }),
  );
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

/** A payment intent the signed-in user made in this project (by the tags set at creation); any other is 404. */
export async function getPaymentIntent(ctx: BillingContext, scope: Scope, user: User, id: string) {
  const { stripe } = await ctx.clients.require(scope);
  const intent = await callStripe(scope.environment, () => stripe.paymentIntents.retrieve(id));
  if (!isTaggedForUser(scope, user.userId, intent.metadata)) throw errors.notFound('Payment intent');
  return {
    success: true,
    paymentIntent: { id: intent.id, status: intent.status, amount: intent.amount, currency: intent.currency },
  };
}
