import type { ServerResponse } from 'node:http';
import { tenantKey } from '@platform/db';
import type { Knex } from 'knex';
import { envelopeOf, type EventBus } from '@platform/events';
import { type Logger } from '@platform/http';
import { AppError, errors, type Tenant } from '@platform/tenancy';
import type { LiveConfig } from '../config';
import { currentSeq, listChanges, oldestSeq, type ChangeRow } from '../notifications/notifications.events';
import { unreadCounts } from '../notifications/notifications.service';
import { changeFrame, LiveStream } from './live.stream';

/** The bus topic that tells every replica a project's change log grew. */
export const CHANGED_TOPIC = 'notifications.changed';
const PAGE = 1_000;
/** How long changes announced out of order wait for the missing one before the log is read. */
const GAP_WAIT_MS = 100;

/** One project's streams on this process, and how far this process has read its change log. */
interface ProjectFeed {
  tenant: Tenant;
  /** -1 until the first stream's snapshot says where the log stands. */
  lastSeq: number;
  streams: Set<LiveStream>;
  /** A user's streams: most users hold one, kept without a Set of its own. */
  users: Map<string, LiveStream | Set<LiveStream>>;
  /** Streams opened or opening, per user: what the limits count. */
  slots: number;
  userSlots: Map<string, number>;
  pumping: boolean;
  again: boolean;
  /** Announced changes that came ahead of one still missing (commits finish out of order). */
  pending: Map<number, ChangeRow>;
  gapTimer?: NodeJS.Timeout;
}

export interface OpenStream {
  tenant: Tenant;
  userId: string;
  /** From Last-Event-ID: replay what came after it. */
  lastEventId?: number;
  /** Epoch milliseconds at which the stream ends (the access token's expiry). */
  endsAt?: number;
}

/**
 * Every live stream of this process. The database is the source: each change is a numbered
 * row of its project's log (notification_events); a bus signal only says "read the log
 * again", so a signal that is lost or comes twice costs a little latency, never an event.
 * Streams of a project are fed in log order by one reader, and each stream skips what it
 * already sent, so a client sees each change once, in order.
 */
export class LiveHub {
  private readonly feeds = new Map<string, ProjectFeed>();
  private heartbeat?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: Knex,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly config: LiveConfig,
  ) {}

  /** Listens for other replicas' changes (a queue of this process's own) and starts the heartbeat. */
  async start(): Promise<void> {
    await this.bus.subscribe({
      queue: 'notifications.live',
      topics: [CHANGED_TOPIC],
      perProcess: true,
      handler: async (event) => {
        const { changes } = (event.data ?? {}) as { changes?: ChangeRow[] };
        this.changed({ tenantId: event.tenantId, projectId: event.projectId }, changes);
      },
    });
    this.heartbeat = setInterval(() => this.beat(), this.config.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Call after committing changes: this process feeds them at once, the others when the signal
   * (which carries them) arrives. With nothing to announce, nothing is sent.
   */
  announce(tenant: Tenant, changes: ChangeRow[]): void {
    if (!changes.length) return;
    this.changed(tenant, changes);
    const data = { changes };
    const event = envelopeOf({ type: CHANGED_TOPIC, tenantId: tenant.tenantId, projectId: tenant.projectId, data });
    this.bus.publish(event).catch((error: unknown) => {
      // The changes are in the log: other replicas pick them up at their next heartbeat.
      this.logger.warn('live change signal not sent', { error: String(error) });
    });
  }

  /** Streams open on this process, of one project or of all (metrics, tests, benches). */
  openStreams(tenant?: Tenant): number {
    if (tenant) return this.feeds.get(tenantKey(tenant))?.streams.size ?? 0;
    let size = 0;
    for (const feed of this.feeds.values()) size += feed.streams.size;
    return size;
  }

  /**
   * Admits a stream (429 beyond the limits, before anything is written), sends what it missed
   * and its unread count, then feeds it live.
   */
  async open(res: ServerResponse, request: OpenStream): Promise<void> {
    if (this.closed) throw new AppError('SERVICE_UNAVAILABLE', 'Shutting down');
    const feed = this.feedOf(request.tenant);
    const userSlots = feed.userSlots.get(request.userId) ?? 0;
    if (feed.slots >= this.config.maxStreamsPerProject || userSlots >= this.config.maxStreamsPerUser) {
      this.forgetIfEmpty(feed);
      const scope = feed.slots >= this.config.maxStreamsPerProject ? 'this project' : 'this user';
      throw errors.rateLimited(`Too many open streams for ${scope}`, 5);
    }
    feed.slots++;
    feed.userSlots.set(request.userId, userSlots + 1);
    let stream: LiveStream | undefined;
    try {
      const snapshot = await this.snapshot(request.tenant, request.userId, request.lastEventId !== undefined);
      if (feed.lastSeq < 0) feed.lastSeq = snapshot.seq;
      stream = new LiveStream(res, request.userId, snapshot, this.config.maxBufferedBytes, request.lastEventId);
      stream.begin();
      await this.replay(stream, request, snapshot);
      stream.sendCount(true);
      // This process's reader may be ahead of the snapshot: catch up before joining it.
      while (!stream.closed && feed.lastSeq > stream.sentSeq) {
        const upTo = feed.lastSeq;
        const rows = await listChanges(this.db, request.tenant, {
          after: stream.sentSeq,
          upTo,
          userId: request.userId,
          limit: PAGE,
        });
        let stale = false;
        for (const row of rows) {
          stale = stream.deliver(row) || stale;
          await stream.drained();
        }
        if (rows.length < PAGE) stream.sentSeq = Math.max(stream.sentSeq, upTo);
        if (stale) await this.recount(request.tenant, [stream]);
        stream.sendCount();
      }
    } catch (error) {
      this.release(feed, request.userId);
      if (!stream) throw error;
      this.logger.warn('live stream failed to start', { error: String(error) });
      stream.end();
      return;
    }
    if (stream.closed || this.closed) {
      this.release(feed, request.userId);
      return;
    }
    this.join(feed, stream, request.endsAt);
    void this.pump(feed);
  }

  /** Ends every stream (shutdown); clients reconnect elsewhere with Last-Event-ID. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const feed of this.feeds.values()) {
      clearTimeout(feed.gapTimer);
      for (const stream of feed.streams) stream.end();
    }
    this.feeds.clear();
  }

  private feedOf(tenant: Tenant): ProjectFeed {
    const key = tenantKey(tenant);
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = {
        tenant: { tenantId: tenant.tenantId, projectId: tenant.projectId },
        lastSeq: -1,
        streams: new Set(),
        users: new Map(),
        slots: 0,
        userSlots: new Map(),
        pumping: false,
        again: false,
        pending: new Map(),
      };
      this.feeds.set(key, feed);
    }
    return feed;
  }

  private join(feed: ProjectFeed, stream: LiveStream, endsAt?: number): void {
    feed.streams.add(stream);
    const mine = feed.users.get(stream.userId);
    if (!mine) feed.users.set(stream.userId, stream);
    else if (mine instanceof Set) mine.add(stream);
    else feed.users.set(stream.userId, new Set([mine, stream]));
    const timer =
      endsAt === undefined
        ? undefined
        : setTimeout(() => stream.end(), Math.min(Math.max(endsAt - Date.now(), 0), 2 ** 31 - 1));
    timer?.unref();
    stream.onClose(() => {
      clearTimeout(timer);
      this.leave(feed, stream);
    });
  }

  private leave(feed: ProjectFeed, stream: LiveStream): void {
    feed.streams.delete(stream);
    const mine = feed.users.get(stream.userId);
    if (mine === stream) feed.users.delete(stream.userId);
    else if (mine instanceof Set) {
      mine.delete(stream);
      if (mine.size === 1) feed.users.set(stream.userId, mine.values().next().value!);
    }
    this.release(feed, stream.userId);
  }

  /** Gives a stream's slot back. */
  private release(feed: ProjectFeed, userId: string): void {
    const left = (feed.userSlots.get(userId) ?? 1) - 1;
    if (left > 0) feed.userSlots.set(userId, left);
    else feed.userSlots.delete(userId);
    feed.slots = Math.max(0, feed.slots - 1);
    this.forgetIfEmpty(feed);
  }

  /** Forgets a project when nothing of it is left on this process. */
  private forgetIfEmpty(feed: ProjectFeed): void {
    if (feed.slots > 0 || feed.streams.size) return;
    const key = tenantKey(feed.tenant);
    if (this.feeds.get(key) === feed) this.feeds.delete(key);
  }

  /** Where the log stands and the user's unread count, in one snapshot: the count is exact as of that seq. */
  private async snapshot(tenant: Tenant, userId: string, withOldest: boolean) {
    return this.db.transaction(
      async (trx) => {
        const seq = await currentSeq(trx, tenant);
        const count = (await unreadCounts(trx, tenant, [userId])).get(userId) ?? 0;
        const oldest = withOldest ? await oldestSeq(trx, tenant) : undefined;
        return { seq, count, oldest };
      },
      { isolationLevel: 'repeatable read' },
    );
  }

  /**
   * Sends the changes after Last-Event-ID up to the snapshot. When they are no longer all
   * kept, or more than the replay limit, the client gets `reset` (reload the list) instead.
   */
  private async replay(
    stream: LiveStream,
    request: OpenStream,
    snapshot: { seq: number; oldest?: number },
  ): Promise<void> {
    const from = request.lastEventId;
    if (from === undefined || from >= snapshot.seq) return;
    const kept = snapshot.oldest !== undefined && from >= snapshot.oldest - 1;
    const rows = kept
      ? await listChanges(this.db, request.tenant, {
          after: from,
          upTo: snapshot.seq,
          userId: request.userId,
          limit: this.config.replayMaxEvents + 1,
        })
      : [];
    if (!kept || rows.length > this.config.replayMaxEvents) {
      stream.reset(snapshot.seq);
      return;
    }
    stream.sentSeq = from;
    for (const row of rows) {
      stream.deliver(row);
      await stream.drained();
    }
    stream.sentSeq = snapshot.seq;
  }

  /**
   * A project's log grew: feed its streams here, if there are any. Announced changes are fed
   * as they come once they follow on from what this process has fed; a gap that an
   * announcement does not fill soon, or a signal without changes, makes it read the log.
   */
  private changed(tenant: Tenant, changes?: ChangeRow[]): void {
    const feed = this.feeds.get(tenantKey(tenant));
    if (!feed || feed.lastSeq < 0) return;
    if (!changes?.length) {
      void this.pump(feed);
      return;
    }
    for (const change of changes) if (change.seq > feed.lastSeq) feed.pending.set(change.seq, change);
    this.drainPending(feed);
  }

  private drainPending(feed: ProjectFeed): void {
    if (feed.pumping) {
      feed.again = true;
      return;
    }
    const run: ChangeRow[] = [];
    for (let next = feed.lastSeq + 1; feed.pending.has(next); next++) {
      run.push(feed.pending.get(next)!);
      feed.pending.delete(next);
    }
    if (run.length) this.feedChanges(feed, run);
    if (feed.pending.size && !feed.gapTimer) {
      feed.gapTimer = setTimeout(() => {
        feed.gapTimer = undefined;
        if (feed.pending.size) void this.pump(feed);
      }, GAP_WAIT_MS);
      feed.gapTimer.unref();
    }
  }

  /** The one reader of a project's log on this process; a call while it runs makes it read once more. */
  private async pump(feed: ProjectFeed): Promise<void> {
    if (feed.pumping) {
      feed.again = true;
      return;
    }
    feed.pumping = true;
    try {
      let rows: ChangeRow[];
      do {
        feed.again = false;
        rows = await listChanges(this.db, feed.tenant, { after: feed.lastSeq, limit: PAGE });
        this.feedChanges(feed, rows);
      } while (!this.closed && (feed.again || rows.length === PAGE));
    } catch (error) {
      this.logger.warn('live feed read failed', { error: String(error) });
    } finally {
      feed.pumping = false;
    }
    for (const seq of feed.pending.keys()) if (seq <= feed.lastSeq) feed.pending.delete(seq);
    this.drainPending(feed);
  }

  /**
   * Sends changes (in log order, following on from feed.lastSeq) to the streams they concern.
   * Counts that need the database are sent when it has answered.
   */
  private feedChanges(feed: ProjectFeed, rows: ChangeRow[]): void {
    const stale = new Set<LiveStream>();
    const touched = new Set<LiveStream>();
    for (const row of rows) {
      const mine = row.user_id === null ? feed.streams : feed.users.get(row.user_id);
      const targets = mine instanceof LiveStream ? [mine] : (mine ?? []);
      // Serialised once for all its streams (a broadcast reaches every stream of the project).
      let frame: Buffer | undefined;
      for (const stream of targets) {
        if (!touched.has(stream)) {
          touched.add(stream);
          if (stream.cutIfBehind()) continue;
        }
        if (row.visible && stream.sentSeq < row.seq) frame ??= changeFrame(row);
        if (stream.deliver(row, frame)) stale.add(stream);
      }
      feed.lastSeq = row.seq;
    }
    for (const stream of touched) if (!stale.has(stream)) stream.sendCount();
    if (!stale.size) return;
    this.recount(feed.tenant, [...stale])
      .then(() => {
        for (const stream of stale) stream.sendCount();
      })
      .catch((error: unknown) => this.logger.warn('live recount failed', { error: String(error) }));
  }

  /** Counts again where a change's effect on a user's count is not known without the database. */
  private async recount(tenant: Tenant, streams: LiveStream[]): Promise<void> {
    const users = [...new Set(streams.map((stream) => stream.userId))];
    const { seq, counts } = await this.db.transaction(
      async (trx) => ({ seq: await currentSeq(trx, tenant), counts: await unreadCounts(trx, tenant, users) }),
      { isolationLevel: 'repeatable read' },
    );
    for (const stream of streams) stream.setCount(counts.get(stream.userId) ?? 0, seq);
  }

  private beat(): void {
    for (const feed of this.feeds.values()) {
      for (const stream of feed.streams) stream.ping();
      // Also catches up on a change whose signal was lost.
      this.changed(feed.tenant);
    }
  }
}
