import type { AccessTokenClaims } from '@platform/tenancy';
import { assertUserCustomer } from '../customers/customers.service';
import { customerForUser } from '../customers/user-customer.service';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { callStripe } from '../stripe/stripe-errors';
import type { CreatePortalInput } from './portal.schemas';

/** A Stripe customer-portal session for the signed-in user's customer (404 for any other). */
export async function createPortalSession(
  ctx: BillingContext,
  scope: Scope,
  user: Pick<AccessTokenClaims, 'userId' | 'email'>,
  input: CreatePortalInput,
) {
  const { stripe } = await ctx.clients.require(scope);
  if (input.customer) await assertUserCustomer(ctx, scope, user.userId, input.customer);
  const customer = input.customer ?? (await customerForUser(ctx, scope, stripe, user));
  const session = await callStripe(scope.environment, () =>
    stripe.billingPortal.sessions.create({ customer, return_url: input.return_url }),
  );
  return {
    success: true,
    session: {
      id: session.id,
      url: session.url,
      customer: session.customer,
      return_url: session.return_url ?? input.return_url,
    },
  };
}
