import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase } from '@platform/testkit';
import { createDb, tenantBindings, tenantColumns, sharedTable, tenantTable, type Tenant } from '../src';

interface NoteRow {
  id: string;
  tenant_id: string;
  project_id: string;
  title: string;
}

let db: Knex;
let drop: () => Promise<void>;
const mine: Tenant = { tenantId: randomUUID(), projectId: randomUUID() };
// Same tenant, another project: the project must count too, not the tenant alone.
const sibling: Tenant = { tenantId: mine.tenantId, projectId: randomUUID() };
const other: Tenant = { tenantId: randomUUID(), projectId: randomUUID() };

beforeAll(async () => {
  const database = await createTestDatabase('tenant_table');
  drop = database.drop;
  db = createDb({ url: database.url, poolMax: 2 });
  await db.schema.createTable('notes', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable();
    t.uuid('project_id').notNullable();
    t.text('title').notNullable();
  });
  await db.schema.createTable('tags', (t) => {
    t.uuid('tenant_id').notNullable();
    t.uuid('project_id').notNullable();
    t.uuid('note_id').notNullable();
    t.text('tag').notNullable();
  });
  await db.schema.createTable('feeds', (t) => t.text('url').primary());
});

afterAll(async () => {
  await db.destroy();
  await drop();
});

async function note(owner: Tenant, title: string): Promise<string> {
  const [row] = await tenantTable<NoteRow>(db, owner, 'notes').insert({ ...tenantColumns(owner), title }, ['id']);
  return row.id;
}

describe('tenantTable', () => {
  it("when another tenant's or project's row has the same id, then it is never read, updated or deleted", async () => {
    const theirs = await note(other, 'theirs');
    const siblings = await note(sibling, 'sibling');
    const own = await note(mine, 'mine');

    expect(await tenantTable<NoteRow>(db, mine, 'notes').whereIn('id', [theirs, siblings, own]).select('id')).toEqual([
      { id: own },
    ]);
    expect(await tenantTable<NoteRow>(db, mine, 'notes').where({ id: theirs }).update({ title: 'taken' })).toBe(0);
    expect(await tenantTable<NoteRow>(db, mine, 'notes').where({ id: siblings }).delete()).toBe(0);
    expect(await db('notes').whereIn('id', [theirs, siblings]).orderBy('title').pluck('title')).toEqual([
      'sibling',
      'theirs',
    ]);
    expect(await tenantTable<NoteRow>(db, mine, 'notes').where({ id: own }).update({ title: 'renamed' })).toBe(1);
  });

  it('when two tenant tables are joined with aliases, then each side is limited to the owner', async () => {
    const own = await note(mine, 'joined');
    const theirs = await note(other, 'joined');
    await db('tags').insert([
      { ...tenantColumns(mine), note_id: own, tag: 'a' },
      // A tag of another tenant on my note (a corrupt row): the join must not surface it.
      { ...tenantColumns(other), note_id: own, tag: 'foreign' },
      { ...tenantColumns(other), note_id: theirs, tag: 'b' },
    ]);
    const rows = await tenantTable(db, mine, 'notes as n')
      .join(tenantTable(db, mine, 'tags as t').select('t.note_id', 't.tag').as('t'), 't.note_id', 'n.id')
      .where('n.title', 'joined')
      .select('n.id', 't.tag');
    expect(rows).toEqual([{ id: own, tag: 'a' }]);
    const sql = tenantTable(db, mine, 'notes as n').select('n.id').toSQL().sql;
    expect(sql).toBe('select "n"."id" from "notes" as "n" where "n"."tenant_id" = ? and "n"."project_id" = ?');
  });

  it('when the table reference is not a table or "table as alias", then it is refused before any SQL', () => {
    expect(() => tenantTable(db, mine, 'notes; drop table notes')).toThrow(/table as alias/);
    expect(() => tenantTable(db, mine, 'notes n')).toThrow(/table as alias/);
  });

  it('when raw SQL binds the owner, then tenantBindings names the same two values', async () => {
    const own = await note(mine, 'raw');
    await note(other, 'raw');
    const { rows } = await db.raw<{ rows: { id: string }[] }>(
      "select id from notes where tenant_id = :tenantId and project_id = :projectId and title = 'raw'",
      tenantBindings(mine),
    );
    expect(rows).toEqual([{ id: own }]);
  });
});

describe('sharedTable', () => {
  it('when a table is deliberately shared, then the query is not filtered by any owner', async () => {
    await sharedTable(db, 'feeds').insert([{ url: 'https://a.test/rss' }, { url: 'https://b.test/rss' }]);
    expect(await sharedTable<{ url: string }>(db, 'feeds').orderBy('url').pluck('url')).toEqual([
      'https://a.test/rss',
      'https://b.test/rss',
    ]);
  });
});
