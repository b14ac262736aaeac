import type { Knex } from 'knex';
import type { Scope } from '../shared/scope';
import { toSubscriptionView } from './subscriptions.mapper';
import { findCurrentByEmail, saveSubscription, type SubscriptionState } from './subscriptions.repository';

/** Answered from the table the webhooks keep, without asking Stripe. */
export async function currentSubscription(db: Knex, scope: Scope, email: string) {
  const row = await findCurrentByEmail(db, scope, email);
  return { success: true, subscription: row ? toSubscriptionView(row) : null };
}

/** Keeps the table current from a Stripe event of `eventAt` (an older event changes nothing). */
export async function recordSubscriptionState(
  db: Knex,
  scope: Scope,
  state: SubscriptionState,
  eventAt: Date,
): Promise<void> {
  await saveSubscription(db, scope, state, eventAt);
}
