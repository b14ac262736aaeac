/**
 * Noisy neighbours: project Y's simple authenticated read (CMS content list), quiet and then
 * while project X runs abusive patterns as fast as it can, in one process as under `pnpm start`:
 * a template blow-up (mailer preview), a schema error blow-up (CMS create) and a flood of
 * random keys. Targets: Y keeps at least 70% of its quiet throughput, its p99 at most 2x the
 * quiet p99, RSS grows less than 200 MB. NOISY_BENCH_SECONDS sets each phase's length.
 * Not covered here: a tarpit webhook receiver (its deadline comes with the shared webhook package).
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import request from 'supertest';
import { createTestService } from '@platform/testkit';
import { cmsService } from '@platform/cms';
import { mailerService } from '@platform/mailer';
import { benchDatabaseServer } from './lib/database';
import { listenService } from './lib/listen';
import { runLoad } from './lib/load';

const seconds = Number(process.env.NOISY_BENCH_SECONDS ?? process.env.BENCH_SECONDS ?? 10);

const BLOW_UP =
  '{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{this}}{{/each}}{{/each}}{{/each}}{{/each}}';
const RECURSIVE_ANY_OF = {
  definitions: { n: { anyOf: [0, 1].map(() => ({ type: 'array', items: { $ref: '#/definitions/n' } })) } },
  $ref: '#/definitions/n',
};
const nested = (depth: number) =>
  JSON.stringify(Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'x'));

/** Runs as fast as `connections` allow until stopped; counts answers by status class. */
function abuse(options: autocannon.Options): { stop(): Promise<Record<string, number>> } {
  const statuses: Record<string, number> = {};
  let instance!: autocannon.Instance;
  const finished = new Promise<void>((resolve) => {
    instance = autocannon({ ...options, duration: 3600 }, () => resolve());
  });
  instance.on('response', (_client: unknown, status: number) => {
    const key = `${Math.floor(status / 100)}xx`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  });
  return {
    stop: async () => {
      instance.stop();
      await finished;
      return statuses;
    },
  };
}

export default async function bench(): Promise<string[]> {
  const database = await benchDatabaseServer();
  process.env.TEST_DATABASE_URL ??= database.url;
  // Y's own per-project limit is not what is measured: at full speed its three windows would reach it.
  const cms = await createTestService(cmsService, { env: { KEY_FAILURE_LIMIT: '30', PROJECT_RATE_LIMIT: '10000000' } });
  const mailer = await createTestService(mailerService);
  const [x, y, mailX] = [await cms.createProject(), await cms.createProject(), await mailer.createProject()];
  await request(cms.app)
    .post('/v1/content-types')
    .set(x.headers)
    .send({ name: 'n', schema: RECURSIVE_ANY_OF })
    .expect(201);
  const template = await request(mailer.app)
    .post('/v1/templates')
    .set(mailX.headers)
    .send({ name: 'b', subject: 's', html: BLOW_UP })
    .expect(201);
  await request(cms.app)
    .post('/v1/content')
    .set(y.headers)
    .send({ type: 'blog', title: 'Hello', content: 'c' })
    .expect((res) => {
      if (res.status !== 201) throw new Error(`setup: ${res.status} ${JSON.stringify(res.body)}`);
    });
  const cmsUrl = await listenService(cms.app);
  const mailerUrl = await listenService(mailer.app);
  const read = () =>
    runLoad({ url: `${cmsUrl.url}/v1/content`, headers: y.headers, connections: 10, durationSeconds: seconds });

  await read(); // warm-up
  const quiet = await read();
  const rssBefore = process.memoryUsage().rss;

  const json = { 'content-type': 'application/json' };
  const noise = [
    abuse({
      url: `${mailerUrl.url}/v1/templates/${template.body.id}/preview`,
      method: 'POST',
      headers: { ...json, ...mailX.headers },
      body: JSON.stringify({ data: { a: Array.from({ length: 60 }, (_, i) => i) } }),
      connections: 4,
    }),
    abuse({
      url: `${cmsUrl.url}/v1/content`,
      method: 'POST',
      headers: { ...json, ...x.headers },
      body: JSON.stringify({ type: 'custom', contentType: 'n', title: 't', content: nested(24) }),
      connections: 4,
    }),
    abuse({
      url: `${cmsUrl.url}/v1/content`,
      connections: 20,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, ...x.headers, 'x-api-key': `pk_${randomBytes(12).toString('hex')}` },
          }),
        },
      ],
    }),
  ];
  const noisy = await read();
  const statuses = await Promise.all(noise.map((n) => n.stop()));
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;

  await cmsUrl.close();
  await mailerUrl.close();
  await cms.close();
  await mailer.close();
  await database.stop();

  const share = noisy.requestsPerSecond / quiet.requestsPerSecond;
  const p99Ratio = noisy.p99Ms / Math.max(1, quiet.p99Ms);
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  return [
    `quiet Y: ${quiet.requestsPerSecond.toFixed(0)} req/s, p99 ${quiet.p99Ms} ms; noisy Y: ${noisy.requestsPerSecond.toFixed(0)} req/s, p99 ${noisy.p99Ms} ms, non-2xx ${noisy.non2xx}`,
    `abusive answers (template, schema, random keys): ${statuses.map((s) => JSON.stringify(s)).join(' ')}`,
    `${mark(share >= 0.7)} Y throughput under noise: ${(share * 100).toFixed(0)}% of quiet (target >= 70%)`,
    `${mark(p99Ratio <= 2)} Y p99 under noise: ${p99Ratio.toFixed(2)}x quiet (target <= 2x)`,
    `${mark(rssGrowthMb < 200)} RSS growth under noise: ${rssGrowthMb.toFixed(0)} MB (target < 200 MB)`,
  ];
}
