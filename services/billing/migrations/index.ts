import type { Migration } from '@platform/db';
import { createStripeConfigs } from './0001-stripe-configs';
import { createCustomers } from './0002-customers';
import { createSubscriptions } from './0003-subscriptions';
import { createStripeEvents } from './0004-stripe-events';
import { indexSubscriptionsByProject } from './0005-subscriptions-by-project';

/**
 * The Billing service's schema changes, oldest first; never reorder or rename an applied one
 * (their names keep the scheme they were applied with, `billing_NNN_what`).
 */
export const migrations: Migration[] = [
  createStripeConfigs,
  createCustomers,
  createSubscriptions,
  createStripeEvents,
  indexSubscriptionsByProject,
];
