import type { Knex } from 'knex';
import { tenantOfRow } from '@platform/db';
import { withOutbox } from '@platform/events';
import type { Tenant } from '@platform/tenancy';
import { recordChange } from './content-changes';
import { publishDraft } from './content.service';
import * as repo from './content.repository';
import type { ContentItemRow } from './content.repository';

type Step = 'publish' | 'publishDraft' | 'unpublish';

/** The schedule's steps that are due for `row`, oldest first (an item may have missed several). */
function dueSteps(row: ContentItemRow, now: number): Step[] {
  const steps: [Date | null, Step][] = [
    [row.publish_at, 'publish'],
    [row.draft_publish_at, 'publishDraft'],
    [row.unpublish_at, 'unpublish'],
  ];
  return steps
    .filter((step): step is [Date, Step] => step[0] !== null && step[0].getTime() <= now)
    .sort((a, b) => a[0].getTime() - b[0].getTime())
    .map(([, step]) => step);
}

function applyStep(trx: Knex.Transaction, tenant: Tenant, row: ContentItemRow, step: Step) {
  const live = row.status === 'published';
  if (step === 'publishDraft') return publishDraft(trx, tenant, row);
  if (step === 'publish')
    return repo.updateContentItem(trx, tenant, row.id, { publishAt: null, ...(live ? {} : { status: 'published' }) });
  // Unpublished goes back to draft: hidden, and ready to be published again.
  return repo.updateContentItem(trx, tenant, row.id, { unpublishAt: null, ...(live ? { status: 'draft' } : {}) });
}

/**
 * Publishes and unpublishes what is due, in batches; every replica runs it, and the row locks
 * (SKIP LOCKED) plus clearing the time in the same transaction make each change happen once.
 * Each change writes its revision and webhooks like a change through the API.
 */
export async function runContentSchedule(db: Knex, relay: { kick(): void }, batchSize: number): Promise<number> {
  let applied = 0;
  for (;;) {
    const count = await withOutbox(db, relay, async (trx, outbox) => {
      const due = await repo.lockDueItems(trx, batchSize);
      const now = Date.now();
      for (let row of due) {
        const tenant = tenantOfRow(row);
        for (const step of dueSteps(row, now)) {
          const after = await applyStep(trx, tenant, row, step);
          if (!after) break;
          await recordChange(trx, outbox, tenant, row, after);
          row = after;
        }
      }
      return due.length;
    });
    applied += count;
    if (count < batchSize) return applied;
  }
}
