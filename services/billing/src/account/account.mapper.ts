import type Stripe from 'stripe';
import type { Environment } from '../shared/environment';

export interface AccountStatus {
  configured: boolean;
  ready: boolean;
  account: {
    id: string;
    email: string | null;
    country: string | null;
    default_currency: string | null;
    charges_enabled: boolean;
    payouts_enabled: boolean;
    details_submitted: boolean;
    type: string | null;
  } | null;
  requirements: {
    currently_due: string[];
    eventually_due: string[];
    past_due: string[];
    disabled_reason: string | null;
  };
  issues: string[];
  environment: Environment;
}

const NO_REQUIREMENTS = { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null };

/** What keeps the account from taking payments or paying out, in words. */
export function issuesOf(account: Stripe.Account): string[] {
  const issues: string[] = [];
  const req = account.requirements;
  if (!account.charges_enabled) issues.push('Charges are not enabled on this Stripe account');
  if (!account.payouts_enabled) issues.push('Payouts are not enabled on this Stripe account');
  if (!account.details_submitted) issues.push('Account details have not been submitted to Stripe');
  if (req?.disabled_reason) issues.push(`Stripe has disabled the account: ${req.disabled_reason}`);
  if (req?.past_due?.length) issues.push(`Information past due: ${req.past_due.join(', ')}`);
  if (req?.currently_due?.length) issues.push(`Information currently due: ${req.currently_due.join(', ')}`);
  return issues;
}

/** The status of a project without keys for the environment: an answer, not an error. */
export function notConfiguredStatus(environment: Environment): AccountStatus {
  return {
    configured: false,
    ready: false,
    account: null,
    requirements: NO_REQUIREMENTS,
    issues: [`Stripe is not configured for the ${environment} environment`],
    environment,
  };
}

export function toAccountStatus(account: Stripe.Account, environment: Environment): AccountStatus {
  const req = account.requirements;
  return {
    configured: true,
    ready: Boolean(account.charges_enabled && account.payouts_enabled && !req?.disabled_reason),
    account: {
      id: account.id,
      email: account.email ?? null,
      country: account.country ?? null,
      default_currency: account.default_currency ?? null,
      charges_enabled: Boolean(account.charges_enabled),
      payouts_enabled: Boolean(account.payouts_enabled),
      details_submitted: Boolean(account.details_submitted),
      type: account.type ?? null,
    },
    requirements: {
      currently_due: req?.currently_due ?? [],
      eventually_due: req?.eventually_due ?? [],
      past_due: req?.past_due ?? [],
      disabled_reason: req?.disabled_reason ?? null,
    },
    issues: issuesOf(account),
    environment,
  };
}
