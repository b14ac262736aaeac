import type Stripe from 'stripe';
import { errors } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { callStripe } from '../stripe/stripe-errors';
import { isTaggedFor, taggedMetadata, toCustomerView, type CustomerView } from './customer.mapper';
import { readStripeCustomers } from './customers.lookup';
import { deleteCustomerRecord, findCustomer, insertCustomer, listCustomerRecords } from './customers.repository';
import type { CustomerInput } from './customers.schemas';

const notFound = () => errors.notFound('Customer');

export async function createCustomer(ctx: BillingContext, scope: Scope, input: CustomerInput): Promise<CustomerView> {
  const { stripe } = await ctx.clients.require(scope);
  const customer = await callStripe(scope.environment, () =>
    stripe.customers.create({
      email: input.email,
      name: input.name,
      description: input.description,
      phone: input.phone,
      metadata: taggedMetadata(scope, input.metadata),
    }),
  );
  await insertCustomer(ctx.db, scope, { stripeCustomerId: customer.id });
  return toCustomerView(customer);
}

/**
 * The Stripe customer, if it is this project's: we must hold a record of it and Stripe's copy
 * must carry our tags. Anything else is 404, so another project's ids reveal nothing.
 */
async function retrieveOwned(
  ctx: BillingContext,
  scope: Scope,
  id: string,
): Promise<{ stripe: Stripe; customer: Stripe.Customer }> {
  const { stripe } = await ctx.clients.require(scope);
  const record = await findCustomer(ctx.db, scope, id);
  if (!record) throw notFound();
  const customer = await callStripe(scope.environment, () => stripe.customers.retrieve(id));
  if (customer.deleted || !isTaggedFor(scope, customer.metadata)) throw notFound();
  return { stripe, customer };
}

export async function getCustomer(ctx: BillingContext, scope: Scope, id: string): Promise<CustomerView> {
  return toCustomerView((await retrieveOwned(ctx, scope, id)).customer);
}

/**
 * Throws 404 unless the id is the signed-in user's own customer in this project (used where a
 * bearer's body names a customer): another user's id must not open their portal or charge them.
 */
export async function assertUserCustomer(ctx: BillingContext, scope: Scope, userId: string, id: string): Promise<void> {
  const record = await findCustomer(ctx.db, scope, id);
  if (!record || record.userId !== userId) throw notFound();
}

export async function updateCustomer(
  ctx: BillingContext,
  scope: Scope,
  id: string,
  input: CustomerInput,
): Promise<CustomerView> {
  const { stripe, customer } = await retrieveOwned(ctx, scope, id);
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
  ctx: BillingContext,
  scope: Scope,
  id: string,
): Promise<{ id: string; object: 'customer'; deleted: true }> {
  const { stripe } = await retrieveOwned(ctx, scope, id);
  await callStripe(scope.environment, () => stripe.customers.del(id));
  await deleteCustomerRecord(ctx.db, scope, id);
  return { id, object: 'customer', deleted: true };
}

/**
 * This project's customers, newest first, read fresh from Stripe (deleted ones and ones that
 * lost our tags are left out). The page is our records; Stripe is asked for all of them at once.
 */
export async function listCustomers(
  ctx: BillingContext,
  scope: Scope,
  page: { limit: number; offset: number },
): Promise<{ object: 'list'; customers: CustomerView[]; data: CustomerView[]; has_more: boolean }> {
  const { stripe } = await ctx.clients.require(scope);
  const records = await listCustomerRecords(ctx.db, scope, page);
  const wanted = records.slice(0, page.limit);
  const live = await readStripeCustomers(stripe, scope.environment, wanted);
  const customers = wanted.flatMap((record) => {
    const customer = live.get(record.stripeCustomerId);
    return customer && isTaggedFor(scope, customer.metadata) ? [toCustomerView(customer)] : [];
  });
  return { object: 'list', customers, data: customers, has_more: records.length > page.limit };
}
