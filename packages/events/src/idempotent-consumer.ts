import type { Knex } from 'knex';
import type { EventHandler } from './bus';
import type { EventEnvelope } from './envelope';

/**
 * Runs `handle` at most once per event id for this consumer: the id is recorded in the same
 * transaction as the handler's own writes, so a redelivered event finds it and does nothing,
 * and a handler that throws leaves no record and is retried.
 */
export function idempotent(
  db: Knex,
  consumer: string,
  handle: (trx: Knex.Transaction, event: EventEnvelope) => Promise<void>,
): EventHandler {
  return async (event) => {
    await db.transaction(async (trx) => {
      const inserted = await trx('processed_events')
        .insert({ consumer, event_id: event.id })
        .onConflict(['consumer', 'event_id'])
        .ignore()
        .returning('event_id');
      if (inserted.length === 0) return;
      await handle(trx, event);
    });
  };
}
