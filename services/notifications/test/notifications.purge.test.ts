import { tryTransactionLock } from '@platform/db';
import { createTestService, waitFor, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { loadNotificationsConfig } from '../src/config';
import { PURGE_LOCK, purgeNotifications, startPurgeSchedule } from '../src/notifications/notifications.purge';
import { api } from './support/notifications-test-service';

let svc: TestService;
let headers: Record<string, string>;

beforeAll(async () => {
  svc = await createTestService(notificationsService);
  headers = (await svc.createProject()).headers;
});

afterAll(async () => {
  await svc.close();
});

async function create(body: object = {}): Promise<string> {
  const res = await api(svc.app, headers).post('/notifications', { body: { title: 't', message: 'm', ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Moves a row's clock back: the only way to have "expired 31 days ago" without waiting. */
async function backdate(id: string, column: 'expires_at' | 'deleted_at', daysAgo: number): Promise<void> {
  await svc.deps
    .db('notifications')
    .where({ id })
    .update({ [column]: svc.deps.db.raw(`now() - make_interval(days => ?)`, [daysAgo]) });
}

async function existing(ids: string[]): Promise<string[]> {
  const rows = await svc.deps.db('notifications').whereIn('id', ids).select('id');
  return rows.map((r: { id: string }) => r.id).sort();
}

describe('purge of old notifications', () => {
  it('when rows expired or were deleted longer ago than the retention, then they and their receipts are removed; newer ones stay', async () => {
    const live = await create();
    const expiredLongAgo = await create();
    const expiredRecently = await create();
    const deletedLongAgo = await create();
    const deletedRecently = await create();
    await backdate(expiredLongAgo, 'expires_at', 31);
    await backdate(expiredRecently, 'expires_at', 29);
    await backdate(deletedLongAgo, 'deleted_at', 31);
    await backdate(deletedRecently, 'deleted_at', 1);
    const read = await api(svc.app, headers).patch(`/notifications/${live}/read`, { query: { userId: 'alice' } });
    expect(read.status).toBe(200);
    await svc.deps.db('notification_receipts').insert({ notification_id: expiredLongAgo, user_id: 'alice' });

    const result = await purgeNotifications(svc.deps.db, { retentionDays: 30, batchSize: 100 });

    expect(result).toEqual({ removed: 2, skipped: false });
    const all = [live, expiredLongAgo, expiredRecently, deletedLongAgo, deletedRecently];
    expect(await existing(all)).toEqual([live, expiredRecently, deletedRecently].sort());
    expect(
      await svc.deps.db('notification_receipts').where({ notification_id: expiredLongAgo }).count('* as n'),
    ).toEqual([{ n: 0 }]);
    expect(await svc.deps.db('notification_receipts').where({ notification_id: live }).count('* as n')).toEqual([
      { n: 1 },
    ]);
  });

  it('when there are more old rows than one batch, then every batch runs until none is left', async () => {
    const ids = await Promise.all(Array.from({ length: 7 }, () => create()));
    for (const id of ids) await backdate(id, 'deleted_at', 3);
    const result = await purgeNotifications(svc.deps.db, { retentionDays: 2, batchSize: 2 });
    // Rows left by earlier tests that are past this shorter retention go too.
    expect(result.removed).toBeGreaterThanOrEqual(7);
    expect(await existing(ids)).toEqual([]);
  });

  it('when retention is 0, then anything already expired is removed', async () => {
    const id = await create();
    await backdate(id, 'expires_at', 0);
    await purgeNotifications(svc.deps.db, { retentionDays: 0, batchSize: 100 });
    expect(await existing([id])).toEqual([]);
  });

  it('when another replica holds the purge lock, then this run is skipped and removes nothing', async () => {
    const id = await create();
    await backdate(id, 'deleted_at', 40);
    const holder = await svc.deps.db.transaction();
    try {
      expect(await tryTransactionLock(holder, PURGE_LOCK)).toBe(true);
      expect(await purgeNotifications(svc.deps.db, { retentionDays: 30, batchSize: 100 })).toEqual({
        removed: 0,
        skipped: true,
      });
      expect(await existing([id])).toEqual([id]);
    } finally {
      await holder.rollback();
    }
    expect((await purgeNotifications(svc.deps.db, { retentionDays: 30, batchSize: 100 })).removed).toBe(1);
  });

  it('when the schedule is started, then it purges on its interval until stopped', async () => {
    const id = await create();
    await backdate(id, 'expires_at', 90);
    const stop = startPurgeSchedule(svc.deps.db, svc.deps.logger, {
      ...loadNotificationsConfig({}),
      retentionDays: 30,
      purgeIntervalMs: 1_000,
      purgeBatchSize: 100,
    });
    try {
      await waitFor(async () => (await existing([id])).length === 0, { timeoutMs: 5_000 });
    } finally {
      await stop();
    }
  });

  it("when the service's background work is started and stopped, then it starts with the default settings and stops cleanly", async () => {
    const stop = await svc.startJobs();
    await expect(stop()).resolves.toBeUndefined();
  });
});
