import Stripe from 'stripe';
import { errors, type PlatformDirectory } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import type { Environment } from '../shared/environment';
import { deleteCustomerRecord } from '../customers/customers.repository';
import { scopeOf } from '../shared/scope';
import { stateForEvent } from '../subscriptions/subscription-state';
import { saveSubscription } from '../subscriptions/subscriptions.repository';
import { isEventProcessed, markEventProcessed } from './stripe-events.repository';

export interface WebhookDelivery {
  tenantId: string;
  projectId: string;
  environment: Environment;
  rawBody: Buffer | undefined;
  signature: string | undefined;
}

/**
 * One Stripe event for one project: verified with that project's webhook secret, applied
 * once (the event id is recorded in the same transaction as its effect).
 */
export async function receiveStripeEvent(ctx: BillingContext, directory: PlatformDirectory, delivery: WebhookDelivery) {
  const project = await directory.findProject(delivery.tenantId, delivery.projectId);
  if (!project) throw errors.notFound('Project');
  const scope = scopeOf(project, delivery.environment);
  const access = await ctx.clients.find(scope);
  if (!access?.webhookSecret) {
    throw errors.providerNotConfigured(
      `No Stripe webhook secret is configured for the ${scope.environment} environment`,
    );
  }
  if (!delivery.signature || !delivery.rawBody?.length)
    throw errors.validation('Missing Stripe-Signature header or body');
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(delivery.rawBody, delivery.signature, access.webhookSecret);
  } catch (err) {
    ctx.logger.warn('rejected a Stripe webhook', {
      tenantId: scope.tenantId,
      projectId: scope.projectId,
      reason: (err as Error).message,
    });
    throw errors.validation('Stripe signature verification failed');
  }
  if (await isEventProcessed(ctx.db, scope, event.id))
    return { received: true, duplicate: true, id: event.id, type: event.type };
  // Stripe is read before the transaction, so no database connection waits on the network.
  const state = await stateForEvent(ctx, scope, access.stripe, event);
  // A customer deleted in Stripe's dashboard stops being ours too (a user then gets a new one).
  const deletedCustomerId = event.type === 'customer.deleted' ? event.data.object.id : null;
  const applied = await ctx.db.transaction(async (trx) => {
    if (!(await markEventProcessed(trx, scope, event))) return false;
    if (state) await saveSubscription(trx, scope, state, new Date(event.created * 1000));
    if (deletedCustomerId) await deleteCustomerRecord(trx, scope, deletedCustomerId);
    return true;
  });
  return { received: true, duplicate: !applied, id: event.id, type: event.type };
}
