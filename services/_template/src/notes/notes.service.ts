import type { Knex } from 'knex';
import { withOutbox } from '@platform/events';
import { errors, isUuid, type Tenant } from '@platform/tenancy';
import { toNote, type Note } from './notes.mapper';
import * as repo from './notes.repository';

/** Creates a note and says so on the bus; the relay sends the event once the transaction commits. */
export async function createNote(
  db: Knex,
  relay: { kick(): void },
  tenant: Tenant,
  input: repo.NewNote,
): Promise<Note> {
  return withOutbox(db, relay, async (trx, outbox) => {
    const note = toNote(await repo.insertNote(trx, tenant, input));
    const { tenantId, projectId } = tenant;
    await outbox.write({ type: 'template.note.created', tenantId, projectId, data: { id: note.id } });
    return note;
  });
}

/** Absent, malformed or another project's: all 404. */
export async function getNote(db: Knex, tenant: Tenant, id: string): Promise<Note> {
  const row = isUuid(id) ? await repo.findNote(db, tenant, id) : undefined;
  if (!row) throw errors.notFound('Note');
  return toNote(row);
}
