import type Stripe from 'stripe';
import { AppError } from '@platform/tenancy';
import type { Environment } from '../shared/environment';
import { callStripe } from '../stripe/stripe-errors';
import type { CustomerRow } from './customers.repository';

/** Stripe's largest list page, and so the most customers one call can bring. */
const STRIPE_PAGE = 100;
/** Stripe creates a customer before we record it (a slow answer, a retry): its `created` may be this much earlier. */
const CREATED_BEFORE_RECORD_S = 30;
/** Clock skew between Stripe and our database: `created` may be this much later than our record. */
const CREATED_AFTER_RECORD_S = 5;
/** List pages read at most; in an account shared with a busy system the rest are cheaper one by one. */
const MAX_LIST_PAGES = 2;
const RETRIEVE_CONCURRENCY = 8;

/**
 * Stripe's live copies of these customers by id; one Stripe has deleted or no longer knows is
 * absent. Stripe's list cannot filter by id, so one list of the customers created in the time
 * span of the records finds them, normally in a single call; any it misses (deleted, or created
 * outside the span) is retrieved on its own, so the result never depends on the span.
 */
export async function readStripeCustomers(
  stripe: Stripe,
  environment: Environment,
  records: CustomerRow[],
): Promise<Map<string, Stripe.Customer>> {
  if (!records.length) return new Map();
  const wanted = new Set(records.map((record) => record.stripe_customer_id));
  const found = await listInSpan(stripe, environment, wanted, spanOf(records));
  const missing = [...wanted].filter((id) => !found.has(id));
  for (let i = 0; i < missing.length; i += RETRIEVE_CONCURRENCY) {
    const batch = await Promise.all(
      missing.slice(i, i + RETRIEVE_CONCURRENCY).map((id) => retrieveLive(stripe, environment, id)),
    );
    for (const customer of batch) if (customer) found.set(customer.id, customer);
  }
  return found;
}

/** Stripe's `created` range (Unix seconds) that holds the customers of these records. */
function spanOf(records: CustomerRow[]): Stripe.RangeQueryParam {
  const times = records.map((record) => record.created_at.getTime());
  return {
    gte: Math.floor(Math.min(...times) / 1000) - CREATED_BEFORE_RECORD_S,
    lte: Math.ceil(Math.max(...times) / 1000) + CREATED_AFTER_RECORD_S,
  };
}

/** The wanted customers among those Stripe lists in the span (newest first, as Stripe pages them). */
async function listInSpan(
  stripe: Stripe,
  environment: Environment,
  wanted: Set<string>,
  created: Stripe.RangeQueryParam,
): Promise<Map<string, Stripe.Customer>> {
  const found = new Map<string, Stripe.Customer>();
  let startingAfter: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES && found.size < wanted.size; page++) {
    const list = await callStripe(environment, () =>
      stripe.customers.list({ created, limit: STRIPE_PAGE, starting_after: startingAfter }),
    );
    for (const customer of list.data) if (wanted.has(customer.id)) found.set(customer.id, customer);
    if (!list.has_more || !list.data.length) break;
    startingAfter = list.data[list.data.length - 1].id;
  }
  return found;
}

async function retrieveLive(stripe: Stripe, environment: Environment, id: string): Promise<Stripe.Customer | null> {
  try {
    const customer = await callStripe(environment, () => stripe.customers.retrieve(id));
    return customer.deleted ? null : customer;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}
