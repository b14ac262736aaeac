import type { ServerResponse } from 'node:http';
import type { ChangeRow } from '../notifications/notifications.events';

/** How clients see each change; an expiry looks like a deletion to them. */
const EVENT_NAMES = {
  notification: 'notification',
  read: 'read',
  read_all: 'read_all',
  deleted: 'deleted',
  expired: 'deleted',
} as const;

/**
 * One Server-Sent Events connection of one user. `sentSeq` is the last change it sent (or
 * passed over as not this user's): anything at or below it is skipped, so overlapping reads
 * never send a change twice. `count` is the user's unread count as of change `countSeq`.
 */
export class LiveStream {
  sentSeq: number;
  private countSeq: number;
  private count: number;
  private countSent = -1;
  closed = false;

  constructor(
    private readonly res: ServerResponse,
    readonly userId: string,
    snapshot: { seq: number; count: number },
    private readonly maxBufferedBytes: number,
  ) {
    this.sentSeq = snapshot.seq;
    this.countSeq = snapshot.seq;
    this.count = snapshot.count;
    res.once('close', () => {
      this.closed = true;
    });
  }

  /** The response head; from here on errors end the stream instead of becoming a response. */
  begin(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    this.res.socket?.setNoDelay(true);
    this.write('retry: 3000\n\n');
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.res.once('close', listener);
  }

  /**
   * Sends one change unless it was sent already, and moves the unread count by what it
   * implies. Returns true when its effect on the count needs the database (a broadcast read
   * for everybody, a deletion or an expiry).
   */
  deliver(change: ChangeRow): boolean {
    if (change.seq <= this.sentSeq) return false;
    this.sentSeq = change.seq;
    if (change.visible) this.send(change.seq, EVENT_NAMES[change.kind], change.payload);
    if (change.seq <= this.countSeq) return false;
    if (change.kind === 'notification' && change.visible) this.count++;
    else if (change.kind === 'read' && change.user_id !== null) this.count = Math.max(0, this.count - 1);
    else if (change.kind === 'read_all') this.count = 0;
    else return true;
    return false;
  }

  /** An exact count as of change `seq` (a recount); ignored when the stream knows a newer one. */
  setCount(count: number, seq: number): void {
    if (seq < this.countSeq) return;
    this.count = count;
    this.countSeq = seq;
  }

  /** `unread_count` when the count changed since it was last sent (or always, on connect). */
  sendCount(always = false): void {
    if (!always && this.count === this.countSent) return;
    this.countSent = this.count;
    this.send(this.sentSeq, 'unread_count', { count: this.count });
  }

  /** Too much was missed to replay: the client should reload its list. */
  reset(seq: number): void {
    this.sentSeq = seq;
    this.send(seq, 'reset', {});
  }

  /** Skipped while earlier writes are still queued: the connection is not idle then. */
  ping(): void {
    if (!this.res.writableNeedDrain) this.write(': ping\n\n');
  }

  end(): void {
    if (!this.closed) this.res.end();
  }

  private send(id: number, event: string, data: unknown): void {
    this.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Resolves once the client has taken what was written (or is gone): replays pace themselves on it. */
  async drained(): Promise<void> {
    if (this.closed || !this.res.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /**
   * Cuts off a client that does not read: called before each round of writes, so what is still
   * queued then is what the client left unread since the last round (a burst written within
   * one round, or one large event, does not count against it).
   */
  cutIfBehind(): boolean {
    if (this.closed) return true;
    if (this.res.writableLength <= this.maxBufferedBytes) return false;
    this.closed = true;
    this.res.destroy();
    return true;
  }

  private write(chunk: string): void {
    if (!this.closed) this.res.write(chunk);
  }
}
