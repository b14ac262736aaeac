/**
 * CMS under load: the full app (key check, validation, OpenAPI-documented handlers) against a
 * bare Express app running the same SQL with no middleware, in the same run and database.
 */
import autocannon from 'autocannon';
import express from 'express';
import request from 'supertest';
import { createTestService } from '@platform/testkit';
import { cmsService } from '@platform/cms';
import { benchDatabaseServer } from './lib/database';
import { listenBare, listenService } from './lib/listen';
import { compare, formatComparison, runLoad, type LoadResult } from './lib/load';

/** runLoad for POSTs whose title differs per request (`#n` appended), as titles mostly do in use. */
async function loadDistinctTitles(options: {
  url: string;
  headers?: Record<string, string>;
  body: { title: string };
}): Promise<LoadResult> {
  let n = 0;
  const result = await autocannon({
    url: options.url,
    connections: 10,
    duration: Number(process.env.BENCH_SECONDS ?? 5),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...options.body, title: `${options.body.title} ${++n}` }),
        }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export default async function bench(): Promise<string[]> {
  const database = await benchDatabaseServer();
  const svc = await createTestService(cmsService);
  const project = await svc.createProject();
  const db = svc.deps.db;

  await request(svc.app)
    .post('/v1/content-types')
    .set(project.headers)
    .send({
      name: 'recipe',
      schema: { type: 'object', required: ['minutes'], properties: { minutes: { type: 'integer' } } },
    })
    .expect(201);
  let itemId = '';
  for (let i = 0; i < 50; i++) {
    const res = await request(svc.app)
      .post('/v1/content')
      .set(project.headers)
      .send({ type: 'blog', title: `Post ${i}`, content: 'x'.repeat(2_000), status: 'published', metadata: { i } })
      .expect(201);
    itemId = res.body.id;
  }

  // The same queries with no keys, no validation, no error envelope: the ceiling.
  const scope = { tenant_id: project.tenantId, project_id: project.projectId };
  const bare = express();
  bare.use(express.json());
  bare.get('/list', async (_req, res) => {
    const [rows, [{ count }]] = await Promise.all([
      db('content_items')
        .where(scope)
        .select('id', 'type', 'title', 'slug', 'status', 'created_at')
        .orderBy('created_at', 'desc')
        .limit(20),
      db('content_items').where(scope).count({ count: '*' }),
    ]);
    res.json({ content: rows, total: Number(count), limit: 20, offset: 0 });
  });
  bare.get('/item', async (_req, res) => {
    res.json(
      await db('content_items')
        .where({ ...scope, id: itemId })
        .first(),
    );
  });
  bare.post('/create', async (req, res) => {
    const [row] = await db('content_items')
      .insert({
        ...scope,
        id: crypto.randomUUID(),
        type: 'custom',
        title: req.body.title,
        slug: crypto.randomUUID(),
        content: req.body.content,
        content_type: 'recipe',
      })
      .returning('*');
    res.status(201).json(row);
  });

  const subject = await listenService(svc.app);
  const baseline = await listenBare(bare);
  const headers = project.headers;
  const lines: string[] = [];
  try {
    // Warm both up first so that neither pays the JIT alone.
    await runLoad({ url: `${subject.url}/v1/content`, headers, durationSeconds: 1 });
    await runLoad({ url: `${baseline.url}/list`, durationSeconds: 1 });
    const list = compare(
      'GET /v1/content (20 summaries + total) vs the same SQL in bare Express',
      await runLoad({ url: `${subject.url}/v1/content`, headers }),
      await runLoad({ url: `${baseline.url}/list` }),
      0.6,
    );
    const item = compare(
      'GET /v1/content/{id} vs the same SQL in bare Express',
      await runLoad({ url: `${subject.url}/v1/content/${itemId}`, headers }),
      await runLoad({ url: `${baseline.url}/item` }),
      0.6,
    );
    const body = { type: 'custom', contentType: 'recipe', title: 'Pancakes', content: JSON.stringify({ minutes: 15 }) };
    const create = compare(
      'POST /v1/content custom (type lookup + schema check + slug) vs a bare insert',
      await loadDistinctTitles({ url: `${subject.url}/v1/content`, headers, body }),
      await loadDistinctTitles({ url: `${baseline.url}/create`, body }),
      0.4,
    );
    // Every request with one title: creates queue for the next -N (informational).
    const sameTitle = { ...body, title: 'Waffles' };
    const contended = await runLoad({
      url: `${subject.url}/v1/content`,
      method: 'POST',
      headers,
      body: sameTitle,
      connections: 10,
    });
    lines.push(
      formatComparison(list),
      formatComparison(item),
      formatComparison(create),
      `INFO  POST /v1/content, 10 connections, all one title: ${contended.requestsPerSecond.toFixed(0)} req/s, p50 ${contended.p50Ms} ms, p99 ${contended.p99Ms} ms, ${contended.non2xx} non-2xx`,
    );
  } finally {
    await subject.close();
    await baseline.close();
    await svc.close();
    await database.stop();
  }
  return lines;
}
