import type { ServerResponse } from 'node:http';
import type { ChangeRow } from '../notifications/notifications.events';
import { leaveInFlight } from '@platform/tenancy';

/** How clients see each change; an expiry looks like a deletion to them. */
const EVENT_NAMES = {
  notification: 'notification',
  read: 'read',
  read_all: 'read_all',
  deleted: 'deleted',
  expired: 'deleted',
} as const;

/**
 * A change's event as bytes: the hub serialises each change once and writes the same Buffer to
 * every stream it concerns (its `id:` is the change's seq, the same for everyone).
 */
export function changeFrame(change: ChangeRow): Buffer {
  return Buffer.from(eventText(change.seq, EVENT_NAMES[change.kind], change.payload));
}

/** An event without `id` leaves the client's Last-Event-ID where the last change put it. */
function eventText(id: number | undefined, event: string, data: unknown): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** What a response keeps that the stream needs no longer once its head is sent. */
interface AnsweredRequest {
  next?: unknown;
}

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
  /** The id of the stream's last event that had one (at first the client's Last-Event-ID). */
  private lastId: number | undefined;
  closed = false;
  /** Called once when the connection closes (the hub gives the stream's slot back). */
  private onClosed?: () => void;

  constructor(
    private readonly res: ServerResponse,
    readonly userId: string,
    snapshot: { seq: number; count: number },
    private readonly maxBufferedBytes: number,
    lastEventId?: number,
  ) {
    this.lastId = lastEventId;
    this.sentSeq = snapshot.seq;
    this.countSeq = snapshot.seq;
    this.count = snapshot.count;
    // The hub's close handler is called from this one listener: each listener is a closure (and
    // a once-wrapper) that every open stream keeps.
    res.once('close', () => {
      this.closed = true;
      this.onClosed?.();
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
    // The head in a write of its own: the socket write flattens the header string in place, so
    // the response keeps one string instead of the pieces it was concatenated from.
    this.res.flushHeaders();
    leaveInFlight(this.res);
    // The request is answered: Express's continuation (its router's closures) would otherwise
    // stay reachable from the request for as long as the stream is open.
    const req = this.res.req as AnsweredRequest | undefined;
    if (req?.next) req.next = undefined;
    this.write('retry: 3000\n\n');
  }

  /** Sets what runs when the connection closes (at once when it has closed already). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.onClosed = listener;
  }

  /**
   * Sends one change unless it was sent already, and moves the unread count by what it
   * implies. Returns true when its effect on the count needs the database (a broadcast read
   * for everybody, a deletion or an expiry). `frame` is the change's serialised event, when
   * the caller has it.
   */
  deliver(change: ChangeRow, frame?: Buffer): boolean {
    if (change.seq <= this.sentSeq) return false;
    this.sentSeq = change.seq;
    if (change.visible) {
      this.write(frame ?? changeFrame(change));
      this.lastId = change.seq;
    }
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

  /**
   * `unread_count` when the count changed since it was last sent (or always, on connect). An id
   * names one event of the stream: the count carries the stream's position only when no event
   * has carried it yet (on connect, or past changes that were not this user's), so that the
   * client's Last-Event-ID resumes exactly there; after a change it carries none.
   */
  sendCount(always = false): void {
    if (!always && this.count === this.countSent) return;
    this.countSent = this.count;
    const id = this.sentSeq === this.lastId ? undefined : this.sentSeq;
    this.lastId = this.sentSeq;
    this.send(id, 'unread_count', { count: this.count });
  }

  /** Too much was missed to replay: the client should reload its list. */
  reset(seq: number): void {
    this.sentSeq = seq;
    this.lastId = seq;
    this.send(seq, 'reset', {});
  }

  /** Skipped while earlier writes are still queued: the connection is not idle then. */
  ping(): void {
    if (!this.res.writableNeedDrain) this.write(': ping\n\n');
  }

  end(): void {
    if (!this.closed) this.res.end();
  }

  private send(id: number | undefined, event: string, data: unknown): void {
    this.write(eventText(id, event, data));
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

  private write(chunk: string | Buffer): void {
    if (!this.closed) this.res.write(chunk);
  }
}
