import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestService, type TestService } from '@platform/testkit';
import { notificationsService } from '..';
import type { Tenant } from '@platform/tenancy';
import { listQueries, markAllReadQueries } from './notifications.repository';
import type { ListNotificationsQuery } from './notifications.schemas';
import { seedNotifications } from '../../test/support/seed';

/**
 * The query plans of the hot statements, on 20,000 rows of one project (plus another
 * project's rows) with statistics from ANALYZE: each must read notifications through an
 * index, never a sequential scan. With a million rows the same plans hold (see
 * bench/notifications.bench.ts, which prints them for 1,000,000 rows).
 */
let svc: TestService;
const tenant: Tenant = { tenantId: randomUUID(), projectId: randomUUID() };

interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes; `rowsOnly` leaves out InitPlans (the page's total, checked on its own). */
function nodesOf(node: PlanNode, rowsOnly: boolean): PlanNode[] {
  const children = (node.Plans ?? []).filter((child) => !rowsOnly || child['Parent Relationship'] !== 'InitPlan');
  return [node, ...children.flatMap((child) => nodesOf(child, rowsOnly))];
}

async function planOf(query: Knex.QueryBuilder | Knex.Raw, rowsOnly = false): Promise<PlanNode[]> {
  const { sql, bindings } = query.toSQL();
  const result = await svc.deps.db.raw(`explain (format json) ${sql}`, bindings as readonly Knex.RawBinding[]);
  return nodesOf(result.rows[0]['QUERY PLAN'][0].Plan, rowsOnly);
}

const SCANS = ['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Index Scan'];
/** Every scan in the plan, as "<node type> <index name>" ("Seq Scan" has none); sorted. */
const scansOf = (nodes: PlanNode[]) =>
  nodes
    .filter((n) => SCANS.includes(n['Node Type']))
    .map((n) => (n['Index Name'] ?? n['Relation Name'])!)
    .sort();

beforeAll(async () => {
  svc = await createTestService(notificationsService);
  await seedNotifications(svc.deps.db, tenant, { count: 20_000, users: 200, broadcastEvery: 100, readers: 200 });
  await seedNotifications(
    svc.deps.db,
    { tenantId: randomUUID(), projectId: randomUUID() },
    { count: 5_000, users: 50, broadcastEvery: 100, readers: 50 },
  );
  await svc.deps.db.raw('vacuum analyze notifications');
  await svc.deps.db.raw('vacuum analyze notification_receipts');
}, 60_000);

afterAll(async () => {
  await svc.close();
});

describe('query plans with realistic statistics', () => {
  const page = { limit: 20, offset: 0 };
  const feeds: [string, ListNotificationsQuery][] = [
    ["a user's feed", { userId: 'user-7', ...page }],
    ["a user's unread feed", { userId: 'user-7', read: false, ...page }],
    ["a user's read feed of one type", { userId: 'user-7', read: true, type: 'warning', ...page }],
    ["a user's feed, third page", { userId: 'user-7', limit: 20, offset: 40 }],
  ];

  it.each(feeds)(
    'when %s is paged, then own rows come from the feed index and broadcasts from theirs, newest first with no sort',
    async (_name, filter) => {
      const nodes = await planOf(listQueries(svc.deps.db, tenant, filter).page, true);
      const scans = scansOf(nodes);
      expect(scans).not.toContain('notifications');
      expect(scans.filter((s) => s.startsWith('notifications_'))).toEqual([
        'notifications_broadcast_idx',
        'notifications_feed_idx',
      ]);
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    },
  );

  it.each(feeds)(
    'when %s is counted, then each of the two counts reads the feed or the broadcast index',
    async (_name, filter) => {
      const scans = scansOf(await planOf(listQueries(svc.deps.db, tenant, filter).count));
      expect(scans).not.toContain('notifications');
      const notificationScans = scans.filter((s) => s.startsWith('notifications_'));
      expect(notificationScans).toHaveLength(2);
      for (const index of notificationScans)
        expect(['notifications_feed_idx', 'notifications_broadcast_idx']).toContain(index);
    },
  );

  it("when a user's page is fetched, then its total is computed with the same indexes as the count", async () => {
    const scans = scansOf(await planOf(listQueries(svc.deps.db, tenant, feeds[0][1]).page));
    expect(scans).not.toContain('notifications');
    expect(scans.filter((s) => s.startsWith('notifications_'))).toHaveLength(4);
  });

  it('when the unfiltered project list is paged, then it reads notifications_project_idx newest first with no sort', async () => {
    const nodes = await planOf(listQueries(svc.deps.db, tenant, page).page, true);
    expect(scansOf(nodes)).toEqual(['notifications_project_idx']);
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
  });

  it('when a user marks all read, then own rows are found through the feed index and broadcasts through theirs', async () => {
    const { own, broadcasts } = markAllReadQueries(svc.deps.db, tenant, 'user-7');
    expect(scansOf(await planOf(own))).toEqual(['notifications_feed_idx']);
    const broadcastScans = scansOf(await planOf(broadcasts));
    expect(broadcastScans).not.toContain('notifications');
    expect(broadcastScans).toContain('notifications_broadcast_idx');
  });

  it('when receipts are joined, then they are looked up by their primary key', async () => {
    const scans = scansOf(await planOf(listQueries(svc.deps.db, tenant, feeds[1][1]).page));
    expect(scans).toContain('notification_receipts_pkey');
    expect(scans).not.toContain('notification_receipts');
  });
});
