/**
 * GET /v1/content?q= over BENCH_SEARCH_ROWS (default 1,000,000) items of one project, against
 * bare Express running the same search SQL on the same database, and the query plan (which
 * must use the GIN index). The rows are seeded with one INSERT ... SELECT generate_series, with
 * the index built afterwards; each search word (`w0` ... `w999`) is in one item's title in 1,000.
 */
import express from 'express';
import { createTestService } from '@platform/testkit';
import { cmsService } from '@platform/cms';
import { benchDatabaseServer } from './lib/database';
import { listenBare, listenService } from './lib/listen';
import { alternate, compare, formatComparison } from './lib/load';

const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const WORD = 'w421';

const SEARCH_SQL = `SELECT id, type, title, slug, status, publish_at AS "publishAt", unpublish_at AS "unpublishAt", created_at AS "createdAt"
  FROM content_items
  WHERE tenant_id = ? AND project_id = ? AND search @@ websearch_to_tsquery('simple', ?)
  ORDER BY ts_rank(search, websearch_to_tsquery('simple', ?)) DESC, created_at DESC, id DESC
  LIMIT 20`;
const COUNT_SQL = `SELECT count(*) AS count FROM content_items
  WHERE tenant_id = ? AND project_id = ? AND search @@ websearch_to_tsquery('simple', ?)`;

export default async function bench(): Promise<string[]> {
  const database = await benchDatabaseServer();
  const svc = await createTestService(cmsService);
  const project = await svc.createProject();
  const db = svc.deps.db;
  const lines: string[] = [];
  const scope = [project.tenantId, project.projectId];

  const seeded = Date.now();
  await db.raw('DROP INDEX content_items_search');
  await db.raw(
    `INSERT INTO content_items (id, tenant_id, project_id, type, title, slug, content, status, metadata, revision)
     SELECT gen_random_uuid(), ?, ?, 'blog',
            'Item ' || i || ' w' || (i % 1000) || ' about ' || (ARRAY['gardens','rivers','engines','recipes','poems'])[1 + i % 5],
            'item-' || i,
            'Body of item ' || i || ' mentions w' || ((i * 7) % 1000) || ' and some common words for length',
            'published', jsonb_build_object('tags', jsonb_build_array('t' || (i % 100))), 1
     FROM generate_series(1, ?) AS i`,
    [...scope, ROWS],
  );
  await db.raw('CREATE INDEX content_items_search ON content_items USING gin (search)');
  await db.raw('ANALYZE content_items');
  lines.push(
    `INFO  seeded ${ROWS.toLocaleString('en')} items (one INSERT ... SELECT generate_series, then the GIN index) in ${((Date.now() - seeded) / 1000).toFixed(0)} s`,
  );

  const plan = (await db.raw(`EXPLAIN ${SEARCH_SQL}`, [...scope, WORD, WORD])).rows.map(
    (row: { 'QUERY PLAN': string }) => row['QUERY PLAN'],
  ) as string[];
  const usesGin = plan.some((line) => line.includes('content_items_search'));
  lines.push(`${usesGin ? 'PASS' : 'FAIL'}  the search's query plan uses the GIN index content_items_search`);
  lines.push(...plan.map((line) => `      ${line}`));

  const bare = express();
  bare.get('/search', async (req, res) => {
    const q = String(req.query.q);
    const [rows, count] = await Promise.all([db.raw(SEARCH_SQL, [...scope, q, q]), db.raw(COUNT_SQL, [...scope, q])]);
    res.json({ content: rows.rows, total: Number(count.rows[0].count), limit: 20, offset: 0 });
  });

  const subject = await listenService(svc.app);
  const baseline = await listenBare(bare);
  try {
    const path = `?q=${WORD}`;
    const check = await fetch(`${subject.url}/v1/content${path}`, { headers: project.headers });
    const body = (await check.json()) as { total: number };
    lines.push(`INFO  GET /v1/content${path}: ${check.status}, ${body.total} matches`);
    const result = await alternate(
      { url: `${subject.url}/v1/content${path}`, headers: project.headers, connections: 20 },
      { url: `${baseline.url}/search${path}`, connections: 20 },
    );
    lines.push(
      formatComparison(
        compare(
          `GET /v1/content?q= over ${ROWS.toLocaleString('en')} items vs the same SQL in bare Express`,
          result.subject,
          result.baseline,
          0.7,
        ),
      ),
    );
  } finally {
    await subject.close();
    await baseline.close();
    await svc.close();
    await database.stop();
  }
  return lines;
}
