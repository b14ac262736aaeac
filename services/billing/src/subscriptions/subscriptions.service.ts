import type { Knex } from 'knex';
import { errors, isUuid } from '@platform/tenancy';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import { toSubscriptionView } from './subscriptions.mapper';
import {
  findCurrentByEmail,
  listSubscriptions,
  saveSubscription,
  type SubscriptionState,
} from './subscriptions.repository';
import type { ListSubscriptionsInput } from './subscriptions.schemas';

// The cursor is the last row's Stripe creation time and id, opaque to callers.
const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !isUuid(id ?? '')) {
    throw errors.validation('cursor is not one this endpoint returned');
  }
  return { createdAt, id };
}

/** The project's subscriptions in one environment, newest first, from the table the webhooks keep. */
export async function listProjectSubscriptions(db: Knex, scope: EnvironmentTenant, input: ListSubscriptionsInput) {
  const rows = await listSubscriptions(db, scope, {
    status: input.status,
    customerEmail: input.customerEmail,
    before: decodeCursor(input.cursor),
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    subscriptions: page.map(toSubscriptionView),
    nextCursor: rows.length > input.limit ? encodeCursor(last.stripe_created_at, last.id) : null,
  };
}

/** Answered from the table the webhooks keep, without asking Stripe. */
export async function currentSubscription(db: Knex, scope: EnvironmentTenant, email: string) {
  const row = await findCurrentByEmail(db, scope, email);
  return { success: true, subscription: row ? toSubscriptionView(row) : null };
}

/** Keeps the table current from a Stripe event of `eventAt` (an older event changes nothing). */
export async function recordSubscriptionState(
  db: Knex,
  scope: EnvironmentTenant,
  state: SubscriptionState,
  eventAt: Date,
): Promise<void> {
  await saveSubscription(db, scope, state, eventAt);
}
