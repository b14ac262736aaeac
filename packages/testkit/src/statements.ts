import type { Knex } from 'knex';

/** The SQL of every statement `db` sends while `work` runs (knex's `query` event), in order. */
export async function statementsDuring(db: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const record = (query: { sql: string }) => sent.push(query.sql);
  db.on('query', record);
  try {
    await work();
  } finally {
    db.off('query', record);
  }
  return sent;
}
