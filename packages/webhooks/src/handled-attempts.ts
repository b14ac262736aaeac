import type { Knex } from 'knex';

/**
 * An attempt is carried out outside any transaction (it waits on a customer's server), so its
 * event is marked done afterwards, in the transaction that records the outcome: these two
 * keep a redelivered event from making a second attempt or a second chain of retries.
 */
export async function attemptHandled(db: Knex, consumer: string, eventId: string): Promise<boolean> {
  return Boolean(await db('processed_events').where({ consumer, event_id: eventId }).first('event_id'));
}

/** Marks the attempt's event done; false when another delivery of it got there first. */
export async function markAttemptHandled(trx: Knex.Transaction, consumer: string, eventId: string): Promise<boolean> {
  const inserted = await trx('processed_events')
    .insert({ consumer, event_id: eventId })
    .onConflict(['consumer', 'event_id'])
    .ignore()
    .returning('event_id');
  return inserted.length > 0;
}
