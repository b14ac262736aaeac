import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { errors } from '@platform/tenancy';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { callStripe } from '../stripe/stripe-errors';
import { readStripeCustomers } from './customers.lookup';
import {
  toCustomerListView,
  toCustomerView,
  toDeletedCustomerView,
  type CustomerListView,
  type CustomerView,
  type DeletedCustomerView,
} from './customers.mapper';
import * as repo from './customers.repository';
import type { CustomerInput } from './customers.schemas';
import { isTaggedFor, taggedMetadata } from './customers.tags';

const notFound = () => errors.notFound('Customer');

export async function createCustomer(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  input: CustomerInput,
): Promise<CustomerView> {
  const { stripe } = await clients.require(scope);
  const customer = await callStripe(scope.environment, () =>
    stripe.customers.create({
      email: input.email,
      name: input.name,
      description: input.description,
      phone: input.phone,
      metadata: taggedMetadata(scope, input.metadata),
    }),
  );
  await repo.insertCustomer(db, scope, { stripeCustomerId: customer.id });
  return toCustomerView(customer);
}

/**
 * The Stripe customer, if it is this project's: we must hold a record of it and Stripe's copy
 * must carry our tags. Anything else is 404, so another project's ids reveal nothing.
 */
async function retrieveOwned(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  id: string,
): Promise<{ stripe: Stripe; customer: Stripe.Customer }> {
  const { stripe } = await clients.require(scope);
  const record = await repo.findCustomer(db, scope, id);
  if (!record) throw notFound();
  const customer = await callStripe(scope.environment, () => stripe.customers.retrieve(id));
  if (customer.deleted || !isTaggedFor(scope, customer.metadata)) throw notFound();
  return { stripe, customer };
}

export async function getCustomer(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  id: string,
): Promise<CustomerView> {
  return toCustomerView((await retrieveOwned(db, clients, scope, id)).customer);
}

/**
 * Throws 404 unless the id is the signed-in user's own customer in this project (used where a
 * bearer's body names a customer): another user's id must not open their portal or charge them.
 */
export async function assertUserCustomer(
  db: Knex,
  scope: EnvironmentTenant,
  userId: string,
  id: string,
): Promise<void> {
  const record = await repo.findCustomer(db, scope, id);
  if (!record || record.user_id !== userId) throw notFound();
}

export async function updateCustomer(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  id: string,
  input: CustomerInput,
): Promise<CustomerView> {
  const { stripe, customer } = await retrieveOwned(db, clients, scope, id);
  const updated = await callStripe(scope.environment, () =>
    stripe.customers.update(id, {
      email: input.email,
      name: input.name,
      description: input.description,
      phone: input.phone,
      // Stripe merges metadata key by key; our tags are sent again so a client cannot unset them.
      metadata: taggedMetadata(
        scope,
        input.metadata,
        customer.metadata?.userId ? { userId: customer.metadata.userId } : {},
      ),
    }),
  );
  return toCustomerView(updated);
}

export async function deleteCustomer(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  id: string,
): Promise<DeletedCustomerView> {
  const { stripe } = await retrieveOwned(db, clients, scope, id);
  await callStripe(scope.environment, () => stripe.customers.del(id));
  await repo.deleteCustomer(db, scope, id);
  return toDeletedCustomerView(id);
}

/** A customer deleted in Stripe's dashboard stops being ours too (a user then gets a new one). */
export async function forgetCustomer(db: Knex, scope: EnvironmentTenant, id: string): Promise<void> {
  await repo.deleteCustomer(db, scope, id);
}

/**
 * This project's customers, newest first, read fresh from Stripe (deleted ones and ones that
 * lost our tags are left out). The page is our records; Stripe is asked for all of them at once.
 */
export async function listCustomers(
  db: Knex,
  clients: StripeClients,
  scope: EnvironmentTenant,
  page: { limit: number; offset: number },
): Promise<CustomerListView> {
  const { stripe } = await clients.require(scope);
  const records = await repo.listCustomers(db, scope, page);
  const wanted = records.slice(0, page.limit);
  const live = await readStripeCustomers(stripe, scope.environment, wanted);
  const customers = wanted.flatMap((record) => {
    const customer = live.get(record.stripe_customer_id);
    return customer && isTaggedFor(scope, customer.metadata) ? [toCustomerView(customer)] : [];
  });
  return toCustomerListView(customers, records.length > page.limit);
}
