import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { Logger } from '@platform/http';
import type { AccessTokenClaims } from '@platform/tenancy';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import { callStripe } from '../stripe/stripe-errors';
import { findUserCustomer, insertCustomer } from './customers.repository';
import { taggedMetadata } from './customers.tags';

/**
 * The Stripe customer that stands for the signed-in user in this project and environment:
 * created on first use (with the user's email unless another is given), reused after.
 */
export async function customerForUser(
  db: Knex,
  logger: Logger,
  scope: EnvironmentTenant,
  stripe: Stripe,
  user: Pick<AccessTokenClaims, 'userId' | 'email'>,
  email?: string,
): Promise<string> {
  const existing = await findUserCustomer(db, scope, user.userId);
  if (existing) return existing.stripe_customer_id;
  const created = await callStripe(scope.environment, () =>
    stripe.customers.create({
      email: email || user.email || undefined,
      metadata: taggedMetadata(scope, {}, { userId: user.userId }),
    }),
  );
  if (await insertCustomer(db, scope, { stripeCustomerId: created.id, userId: user.userId })) return created.id;
  // A concurrent request for the same user won: use its customer and drop ours.
  const winner = await findUserCustomer(db, scope, user.userId);
  await stripe.customers.del(created.id).catch((err: unknown) => {
    logger.warn('could not delete a duplicate Stripe customer', { customerId: created.id, err });
  });
  return winner!.stripe_customer_id;
}
