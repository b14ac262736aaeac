import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { SecretBox } from '@platform/tenancy';
import type { StripeClients } from '../stripe/stripe-clients';

/** What the Billing features share: their database, the key box and the per-project Stripe clients. */
export interface BillingContext {
  db: Knex;
  secrets: SecretBox;
  clients: StripeClients;
  logger: Logger;
}
