import type { Knex } from 'knex';
import Stripe from 'stripe';
import type { Logger } from '@platform/http';
import type { PlatformDirectory } from '@platform/directory';
import { errors } from '@platform/tenancy';
import { forgetCustomer } from '../customers/customers.service';
import type { Environment } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { stateForEvent } from '../subscriptions/subscription-state';
import { recordSubscriptionState } from '../subscriptions/subscriptions.service';
import { isEventProcessed, markEventProcessed } from './stripe-events.repository';
import { toWebhookReceived, type WebhookReceived } from './webhooks.mapper';

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
export async function receiveStripeEvent(
  db: Knex,
  clients: StripeClients,
  directory: PlatformDirectory,
  logger: Logger,
  delivery: WebhookDelivery,
): Promise<WebhookReceived> {
  const project = await directory.findProject(delivery.tenantId, delivery.projectId);
  if (!project) throw errors.notFound('Project');
  const scope = environmentTenantOf(project, delivery.environment);
  const access = await clients.find(scope);
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
    logger.warn('rejected a Stripe webhook', {
      tenantId: scope.tenantId,
      projectId: scope.projectId,
      reason: (err as Error).message,
    });
    throw errors.validation('Stripe signature verification failed');
  }
  if (await isEventProcessed(db, scope, event.id)) return toWebhookReceived(event, true);
  // Stripe is read before the transaction, so no database connection waits on the network.
  const state = await stateForEvent(db, scope, access.stripe, event);
  // A customer deleted in Stripe's dashboard stops being ours too (a user then gets a new one).
  const deletedCustomerId = event.type === 'customer.deleted' ? event.data.object.id : null;
  const applied = await db.transaction(async (trx) => {
    if (!(await markEventProcessed(trx, scope, event))) return false;
    if (state) await recordSubscriptionState(trx, scope, state, new Date(event.created * 1000));
    if (deletedCustomerId) await forgetCustomer(trx, scope, deletedCustomerId);
    return true;
  });
  return toWebhookReceived(event, !applied);
}
