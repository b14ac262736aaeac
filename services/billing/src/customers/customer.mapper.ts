import type Stripe from 'stripe';
import type { Scope } from '../shared/scope';
import type { MetadataInput } from './customers.schemas';

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

const RESERVED = new Set(['tenantId', 'projectId']);

/** The client's metadata as Stripe strings, with the tenant tags set by us and never by the client. */
export function taggedMetadata(
  scope: Scope,
  metadata: MetadataInput = {},
  extra: Record<string, string> = {},
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (!RESERVED.has(key)) result[key] = String(value);
  }
  return { ...result, ...extra, tenantId: scope.tenantId, projectId: scope.projectId };
}

/** True when Stripe's object carries this project's tags (set when we created it). */
export function isTaggedFor(scope: Scope, metadata: Stripe.Metadata | null | undefined): boolean {
  return metadata?.tenantId === scope.tenantId && metadata?.projectId === scope.projectId;
}

/** Tagged for this project and made for this signed-in user (sessions and intents carry the user's id). */
export function isTaggedForUser(scope: Scope, userId: string, metadata: Stripe.Metadata | null | undefined): boolean {
  return isTaggedFor(scope, metadata) && metadata?.userId === userId;
}
