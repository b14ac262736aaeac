import type Stripe from 'stripe';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import type { MetadataInput } from './customers.schemas';

const RESERVED = new Set(['tenantId', 'projectId']);

/** The client's metadata as Stripe strings, with the tenant tags set by us and never by the client. */
export function taggedMetadata(
  scope: EnvironmentTenant,
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
export function isTaggedFor(scope: EnvironmentTenant, metadata: Stripe.Metadata | null | undefined): boolean {
  return metadata?.tenantId === scope.tenantId && metadata?.projectId === scope.projectId;
}

/** Tagged for this project and made for this signed-in user (sessions and intents carry the user's id). */
export function isTaggedForUser(
  scope: EnvironmentTenant,
  userId: string,
  metadata: Stripe.Metadata | null | undefined,
): boolean {
  return isTaggedFor(scope, metadata) && metadata?.userId === userId;
}
