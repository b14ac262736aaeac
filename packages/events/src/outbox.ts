import type { Knex } from 'knex';
import { traceOutboxWrite } from './event-tracing';
import { envelopeOf, type EventEnvelope, type NewEvent } from './envelope';

export interface WriteEventOptions {
  /** Publish no earlier than this (a delayed retry); the relay's poll picks it up when due. */
  availableAt?: Date;
}

/**
 * Writes an event into the outbox. Call it with the transaction that makes the change the
 * event describes, so that both are committed or neither is.
 */
export async function writeEvent<T>(
  trx: Knex | Knex.Transaction,
  event: NewEvent<T>,
  options: WriteEventOptions = {},
): Promise<EventEnvelope<T>> {
  const envelope = envelopeOf(event);
  traceOutboxWrite(envelope);
  await trx('outbox').insert({
    id: envelope.id,
    type: envelope.type,
    envelope: JSON.stringify(envelope),
    ...(options.availableAt ? { next_attempt_at: options.availableAt } : {}),
  });
  return envelope;
}
