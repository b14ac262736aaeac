import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { AccessTokenClaims } from '@platform/tenancy';
import { errors } from '@platform/tenancy';
import { isTaggedForUser, taggedMetadata } from '../customers/customers.tags';
import { customerForUser } from '../customers/user-customer.service';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { callStripe } from '../stripe/stripe-errors';
import { toCheckoutCreated, toCheckoutStatus } from './checkout.mapper';
import type { CreateCheckoutInput } from './checkout.schemas';

type User = Pick<AccessTokenClaims, 'userId' | 'email'>;

/** A hosted checkout page for the signed-in user, who is (or becomes) the Stripe customer. */
export async function createCheckoutSession(
  db: Knex,
  clients: StripeClients,
  logger: Logger,
  scope: EnvironmentTenant,
  user: User,
  input: CreateCheckoutInput,
) {
  const { stripe } = await clients.require(scope);
  const customer = await customerForUser(db, logger, scope, stripe, user, input.customer_email);
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
  return toCheckoutCreated(session, customer);
}

/** A session the signed-in user started in this project (by the tags set at creation); any other is 404. */
export async function getCheckoutSession(clients: StripeClients, scope: EnvironmentTenant, user: User, id: string) {
  const { stripe } = await clients.require(scope);
  const session = await callStripe(scope.environment, () => stripe.checkout.sessions.retrieve(id));
  if (!isTaggedForUser(scope, user.userId, session.metadata)) throw errors.notFound('Checkout session');
  return toCheckoutStatus(session);
}
