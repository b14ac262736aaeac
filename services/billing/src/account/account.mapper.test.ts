import type Stripe from 'stripe';
import { issuesOf } from './account.mapper';

const account = (overrides: Partial<Stripe.Account>) =>
  ({
    id: 'acct_1',
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    requirements: { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null },
    ...overrides,
  }) as unknown as Stripe.Account;

describe('issuesOf', () => {
  it('when charges and payouts are enabled and nothing is due, then there are no issues', () => {
    expect(issuesOf(account({}))).toEqual([]);
  });

  it('when the account is disabled with information past due, then each blocker is listed', () => {
    const issues = issuesOf(
      account({
        charges_enabled: false,
        details_submitted: false,
        requirements: {
          currently_due: [],
          eventually_due: [],
          past_due: ['individual.dob.day'],
          disabled_reason: 'requirements.past_due',
        },
      } as unknown as Partial<Stripe.Account>),
    );
    expect(issues).toEqual([
      'Charges are not enabled on this Stripe account',
      'Account details have not been submitted to Stripe',
      'Stripe has disabled the account: requirements.past_due',
      'Information past due: individual.dob.day',
    ]);
  });
});
