import type { Knex } from 'knex';
import type { EventEnvelope, NewEvent } from './envelope';
import { writeEvent, type WriteEventOptions } from './outbox';

/** Writes events into the outbox of the transaction it was handed. */
export interface OutboxWriter {
  write<T>(event: NewEvent<T>, options?: WriteEventOptions): Promise<EventEnvelope<T>>;
}

/**
 * Runs `work` in a transaction whose events the relay sends as soon as it commits (not at its
 * next poll). Nothing is kicked when the transaction rolls back or wrote no event.
 */
export async function withOutbox<T>(
  db: Knex,
  relay: { kick(): void },
  work: (trx: Knex.Transaction, outbox: OutboxWriter) => Promise<T>,
): Promise<T> {
  let written = 0;
  const result = await db.transaction((trx) =>
    work(trx, {
      write: async (event, options) => {
        const envelope = await writeEvent(trx, event, options);
        written++;
        return envelope;
      },
    }),
  );
  if (written) relay.kick();
  return result;
}
