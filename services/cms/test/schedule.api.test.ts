import { createDb } from '@platform/db';
import { InProcessBus } from '@platform/events';
import { assembleService, type AssembledService, type ServiceDeps, type StopFunction } from '@platform/runtime';
import { waitFor, type TestService } from '@platform/testkit';
import { cmsService } from '../src';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let api: Client;
let replica: ServiceDeps;
let replicaService: AssembledService;
const stops: StopFunction[] = [];

beforeAll(async () => {
  ({ svc, api } = await startCms({ CMS_SCHEDULE_INTERVAL_MS: '20' }));
  // A second instance of the service on the same database: its own pool, bus and timers.
  const { connectionString } = svc.deps.db.client.config.connection as { connectionString: string };
  replica = { ...svc.deps, db: createDb({ url: connectionString, poolMax: 4 }), bus: new InProcessBus() };
  replicaService = assembleService(cmsService, replica);
  stops.push(await svc.startJobs(), await replicaService.startJobs());
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await replicaService.close();
  await replica.db.destroy();
  await svc.close();
});

const soon = (ms = 1_000) => new Date(Date.now() + ms).toISOString();

const revisionsOf = async (id: string) =>
  (await api.get(`/v1/content/${id}/revisions`)).body.revisions as { change: string; status: string }[];

describe('scheduled publishing', () => {
  it('when publishAt comes, then the item is published exactly once although two instances run the schedule', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const publishAt = soon(1_500);
      const res = await api.post('/v1/content', {
        body: { type: 'blog', title: `Scheduled ${i}`, content: 'x', publishAt },
      });
      expect(res.body).toMatchObject({ status: 'draft', publishAt: new Date(publishAt).toISOString() });
      ids.push(res.body.id);
    }
    const unfired = await api.post('/v1/content', {
      body: {
        type: 'blog',
        title: 'Later',
        content: 'x',
        publishAt: soon(600_000),
      },
    });
    const listed = await api.get(`/v1/content?type=blog&limit=1`);
    expect(listed.body.content[0]).toMatchObject({ id: unfired.body.id, publishAt: unfired.body.publishAt });

    await waitFor(async () => (await api.get('/v1/content?status=published&limit=100')).body.total >= 20, {
      timeoutMs: 20_000,
    });
    for (const id of ids) {
      const item = (await api.get(`/v1/content/${id}`)).body;
      expect(item).toMatchObject({ status: 'published', publishAt: null, revision: 2 });
      expect((await revisionsOf(id)).map((r) => r.change)).toEqual(['published', 'created']);
    }
  });

  it('when unpublishAt comes, then a published item goes back to draft, with a revision', async () => {
    const res = await api.post('/v1/content', {
      body: {
        type: 'page',
        title: 'Sale',
        content: 'x',
        status: 'published',
        unpublishAt: soon(),
      },
    });
    await waitFor(async () => (await api.get(`/v1/content/${res.body.id}`)).body.status === 'draft', {
      timeoutMs: 20_000,
    });
    expect((await api.get(`/v1/content/${res.body.id}`)).body.unpublishAt).toBeNull();
    expect((await revisionsOf(res.body.id)).map((r) => r.change)).toEqual(['unpublished', 'created']);
  });

  it("when a draft's publishAt comes, then the draft goes live and readers see it", async () => {
    const res = await api.post('/v1/content', {
      body: { type: 'page', title: 'Menu', content: 'winter', status: 'published' },
    });
    const saved = await api.put(`/v1/content/${res.body.id}?draft=true`, {
      body: { content: 'spring', publishAt: soon() },
    });
    expect(saved.body.publishAt).not.toBeNull();
    expect((await api.get(`/v1/content/${res.body.id}`)).body).toMatchObject({ content: 'winter', publishAt: null });
    await waitFor(async () => (await api.get(`/v1/content/${res.body.id}`)).body.content === 'spring', {
      timeoutMs: 20_000,
    });
    expect((await api.get(`/v1/content/${res.body.id}`)).body.hasDraft).toBe(false);
  });

  it('when publishAt or unpublishAt is past, invalid, or unpublishAt is before publishAt, then 400', async () => {
    const base = { type: 'blog', title: 'Bad times', content: 'x' };
    for (const times of [
      { publishAt: '2020-01-01T00:00:00Z' },
      { unpublishAt: '2020-01-01T00:00:00Z' },
      { publishAt: 'next tuesday' },
      { publishAt: soon(60_000), unpublishAt: soon(30_000) },
    ]) {
      const res = await api.post('/v1/content', { body: { ...base, ...times } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const item = await api.post('/v1/content', { body: base });
    expect((await api.put(`/v1/content/${item.body.id}`, { body: { publishAt: '1999-12-31T23:59:59Z' } })).status).toBe(
      400,
    );
  });

  it('when a schedule is cleared with null, then nothing happens at the time', async () => {
    const item = await api.post('/v1/content', {
      body: {
        type: 'blog',
        title: 'Cancelled',
        content: 'x',
        publishAt: soon(60_000),
      },
    });
    const res = await api.put(`/v1/content/${item.body.id}`, { body: { publishAt: null } });
    expect(res.body).toMatchObject({ publishAt: null, revision: 1 });
  });
});
