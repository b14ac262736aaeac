import type Stripe from 'stripe';

/** The customer as the API returns it: Stripe's shape, plus `createdAt` in ISO form. */
export interface CustomerView {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  created: number;
  createdAt: string;
  livemode: boolean;
}

export interface DeletedCustomerView {
  id: string;
  object: 'customer';
  deleted: true;
}

export interface CustomerListView {
  object: 'list';
  customers: CustomerView[];
  data: CustomerView[];
  has_more: boolean;
}

export function toCustomerView(customer: Stripe.Customer): CustomerView {
  return {
    id: customer.id,
    object: 'customer',
    email: customer.email ?? null,
    name: customer.name ?? null,
    description: customer.description ?? null,
    phone: customer.phone ?? null,
    metadata: { ...(customer.metadata ?? {}) },
    created: customer.created,
    createdAt: new Date(customer.created * 1000).toISOString(),
    livemode: Boolean(customer.livemode),
  };
}

export function toDeletedCustomerView(id: string): DeletedCustomerView {
  return { id, object: 'customer', deleted: true };
}

/** A page of customers under both names clients use (ours and Stripe's). */
export function toCustomerListView(customers: CustomerView[], hasMore: boolean): CustomerListView {
  return { object: 'list', customers, data: customers, has_more: hasMore };
}
