import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { callStripe } from '../stripe/stripe-errors';
import { notConfiguredStatus, toAccountStatus, type AccountStatus } from './account.mapper';

/**
 * The Stripe account behind the project's keys. Without keys this is a 200 with
 * `configured: false` (the question "is it set up?" has an answer); a key Stripe rejects is 403.
 */
export async function getAccountStatus(clients: StripeClients, scope: EnvironmentTenant): Promise<AccountStatus> {
  const access = await clients.find(scope);
  if (!access) return notConfiguredStatus(scope.environment);
  const account = await callStripe(scope.environment, () => access.stripe.accounts.retrieve());
  return toAccountStatus(account, scope.environment);
}
