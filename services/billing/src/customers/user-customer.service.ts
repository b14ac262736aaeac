import type Stripe from 'stripe';
import type { AccessTokenClaims } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { callStripe } from '../stripe/stripe-errors';
import { taggedMetadata } from './customer.mapper';
import { findUserCustomer, insertCustomer } from './customers.repository';

/**
 * The Stripe customer that stands for the signed-in user in this project and environment:
 * created on first use (with the user's email unless another is given), reused after.
 */
export async function customerForUser(
  ctx: BillingContext,
  scope: Scope,
  stripe: Stripe,
  user: Pick<AccessTokenClaims, 'userId' | 'email'>,
  email?: string,
): Promise<string> {
  const existing = await findUserCustomer(ctx.db, scope, user.userId);
  if (existing) return existing.stripeCustomerId;
  const created = await callStripe(scope.environment, () =>
    stripe.customers.create({
      email: email || user.email || undefined,
      metadata: taggedMetadata(scope, {}, { userId: user.userId }),
    }),
  );
  if (await insertCustomer(ctx.db, scope, { stripeCustomerId: created.id, userId: user.userId })) return created.id;
  // A concurrent request for the same user won: use its customer and drop ours.
  const winner = await findUserCustomer(ctx.db, scope, user.userId);
  await stripe.customers.del(created.id).catch((err: unknown) => {
    ctx.logger.warn('could not delete a duplicate Stripe customer', { customerId: created.id, err });
  });
  return winner!.stripeCustomerId;
}
