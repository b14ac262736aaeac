import type { Knex } from 'knex';

/**
 * Columns of a service's database that can name a person (`user_id`, an e-mail), as
 * `table.column`, sorted: each needs a decision in the service's user erasure.
 */
export async function personalColumns(db: Knex): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { name: string }[] }>(
    `select c.table_name || '.' || c.column_name as name
       from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.table_name not in ('outbox', 'processed_events')
        and (c.column_name ~ '(^|_)user_id$' or c.column_name ~ 'email')
      order by 1`,
  );
  return rows.map((row) => row.name);
}
