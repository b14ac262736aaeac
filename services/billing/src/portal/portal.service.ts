import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { AccessTokenClaims } from '@platform/tenancy';
import { assertUserCustomer } from '../customers/customers.service';
import { customerForUser } from '../customers/user-customer.service';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { callStripe } from '../stripe/stripe-errors';
import { toPortalCreated } from './portal.mapper';
import type { CreatePortalInput } from './portal.schemas';

/** A Stripe customer-portal session for the signed-in user's customer (404 for any other). */
export async function createPortalSession(
  db: Knex,
  clients: StripeClients,
  logger: Logger,
  scope: EnvironmentTenant,
  user: Pick<AccessTokenClaims, 'userId' | 'email'>,
  input: CreatePortalInput,
) {
  const { stripe } = await clients.require(scope);
  if (input.customer) await assertUserCustomer(db, scope, user.userId, input.customer);
  const customer = input.customer ?? (await customerForUser(db, logger, scope, stripe, user));
  const session = await callStripe(scope.environment, () =>
    stripe.billingPortal.sessions.create({ customer, return_url: input.return_url }),
  );
  return toPortalCreated(session, input.return_url);
}
