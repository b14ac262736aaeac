import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';

/** A row as stored: snake_case, read with an explicit column list. */
export interface NoteRow {
  id: string;
  title: string;
  body: string;
  created_at: Date;
}

/** What the repository takes to insert: typed input, never the request schema. */
export interface NewNote {
  title: string;
  body: string;
}

const COLUMNS = ['id', 'title', 'body', 'created_at'] as const;

export async function insertNote(db: Knex, tenant: Tenant, note: NewNote): Promise<NoteRow> {
  const [row] = await tenantTable(db, tenant, 'notes')
    .insert({ ...tenantColumns(tenant), title: note.title, body: note.body })
    .returning<NoteRow[]>([...COLUMNS]);
  return row;
}

export async function findNote(db: Knex, tenant: Tenant, id: string): Promise<NoteRow | undefined> {
  return tenantTable<NoteRow>(db, tenant, 'notes')
    .where({ id })
    .first(...COLUMNS);
}
