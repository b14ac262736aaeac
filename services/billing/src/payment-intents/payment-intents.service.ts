import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { AccessTokenClaims } from '@platform/tenancy';
import { errors } from '@platform/tenancy';
import { assertUserCustomer } from '../customers/customers.service';
import { isTaggedForUser, taggedMetadata } from '../customers/customers.tags';
import { customerForUser } from '../customers/user-customer.service';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { callStripe } from '../stripe/stripe-errors';
import { toPaymentIntentCreated, toPaymentIntentStatus } from './payment-intents.mapper';
import type { CreatePaymentIntentInput } from './payment-intents.schemas';

type User = Pick<AccessTokenClaims, 'userId' | 'email'>;

/** A payment intent for the signed-in user's customer (named or not; 404 for any other). */
export async function createPaymentIntent(
  db: Knex,
  clients: StripeClients,
  logger: Logger,
  scope: EnvironmentTenant,
  user: User,
  input: CreatePaymentIntentInput,
) {
  const { stripe } = await clients.require(scope);
  if (input.customer) await assertUserCustomer(db, scope, user.userId, input.customer);
  const customer = input.customer ?? (await customerForUser(db, logger, scope, stripe, user));
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
  return toPaymentIntentCreated(intent, customer);
}

/** A payment intent the signed-in user made in this project (by the tags set at creation); any other is 404. */
export async function getPaymentIntent(clients: StripeClients, scope: EnvironmentTenant, user: User, id: string) {
  const { stripe } = await clients.require(scope);
  const intent = await callStripe(scope.environment, () => stripe.paymentIntents.retrieve(id));
  if (!isTaggedForUser(scope, user.userId, intent.metadata)) throw errors.notFound('Payment intent');
  return toPaymentIntentStatus(intent);
}
