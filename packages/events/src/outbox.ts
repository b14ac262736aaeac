import type { Knex } from 'knex';
import { envelopeOf, type EventEnvelope, type NewEvent } from './envelope';

/**
 * Writes an event into the outbox. Call it with the transaction that makes the change the
 * event describes, so that both are committed or neither is.
 */
export async function writeEvent<T>(trx: Knex | Knex.Transaction, event: NewEvent<T>): Promise<EventEnvelope<T>> {
  const envelope = envelopeOf(event);
  await trx('outbox').insert({ id: envelope.id, type: envelope.type, envelope: JSON.stringify(envelope) });
  return envelope;
}
