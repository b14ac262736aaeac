import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';
import type { RevisionChange } from '../revisions/revisions.model';
import { deleteRevisions, insertRevision } from '../revisions/revisions.service';
import type { OutboxWriter } from '@platform/events';
import { announceContentEvents } from '../webhooks/content-events';
import type { ContentEvent } from '../webhooks/webhooks.model';
import type { ContentItemRow } from './content.repository';
import { toContentItem } from './content.mapper';

const isLive = (row: ContentItemRow | null) => row?.status === 'published';

/** The webhook events a change from `before` to `after` stands for (none for a draft alone). */
export function eventsOf(before: ContentItemRow | null, after: ContentItemRow): ContentEvent[] {
  if (!before) return isLive(after) ? ['content.created', 'content.published'] : ['content.created'];
  if (before.revision === after.revision) return [];
  const events: ContentEvent[] = [];
  const fieldsChanged =
    before.title !== after.title ||
    before.slug !== after.slug ||
    before.content !== after.content ||
    JSON.stringify(before.metadata) !== JSON.stringify(after.metadata);
  if (fieldsChanged || (before.status !== after.status && isLive(before) === isLive(after))) {
    events.push('content.updated');
  }
  if (!isLive(before) && isLive(after)) events.push('content.published');
  if (isLive(before) && !isLive(after)) events.push('content.unpublished');
  return events;
}

function changeOf(before: ContentItemRow | null, after: ContentItemRow): RevisionChange {
  if (!before) return 'created';
  if (!isLive(before) && isLive(after)) return 'published';
  if (isLive(before) && !isLive(after)) return 'unpublished';
  return 'updated';
}

/**
 * In the transaction of a change: the revision it made (when the live item changed) and the
 * webhook deliveries it causes. Every path that changes an item ends here.
 */
export async function recordChange(
  trx: Knex.Transaction,
  outbox: OutboxWriter,
  tenant: Tenant,
  before: ContentItemRow | null,
  after: ContentItemRow,
  change?: RevisionChange,
): Promise<void> {
  if (before?.revision === after.revision) return;
  await insertRevision(trx, tenant, after, change ?? changeOf(before, after));
  const data = toContentItem(after);
  await announceContentEvents(trx, outbox, tenant, eventsOf(before, after), data);
}

/** A deleted item takes its history with it; subscribers get its last state. */
export async function recordDeletion(
  trx: Knex.Transaction,
  outbox: OutboxWriter,
  tenant: Tenant,
  before: ContentItemRow,
): Promise<void> {
  await deleteRevisions(trx, tenant, before.id);
  await announceContentEvents(trx, outbox, tenant, ['content.deleted'], toContentItem(before));
}
