import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { AppError } from './errors';

const busy = (limit: number) =>
  new AppError('RATE_LIMITED', `This project already has ${limit} requests in progress here; try again`, {
    headers: { 'Retry-After': '1' },
  });

/**
 * The 'close' listeners that hand a slot back, one per `projectInFlight` (not one per request):
 * `leaveInFlight` finds a response's among its listeners.
 */
const slotReleasers = new WeakSet<SlotReleaser>();

type SlotReleaser = (this: ServerResponse) => void;

/**
 * At most `limit` requests of one project in progress at once in this process (after the key
 * check): a project firing many slow requests in parallel fills its share of the database pool
 * and the event loop, not everyone's; beyond it, 429 before any work. A request holds its slot
 * until its response closes; an event stream hands it back once it has started
 * (`leaveInFlight`), its own caps bounding it from then on.
 *
 * The slot is a count per project and the response's one shared 'close' listener gives it back
 * (found through `res.req`), so a request adds no closure, no map entry of its own and no
 * property to its response.
 */
export function projectInFlight(limit: number): RequestHandler {
  const inFlight = new Map<string, number>();
  function releaseSlot(this: ServerResponse): void {
    const project = (this.req as Request).tenant!.projectId;
    const left = (inFlight.get(project) ?? 1) - 1;
    if (left === 0) inFlight.delete(project);
    else inFlight.set(project, left);
  }
  slotReleasers.add(releaseSlot);
  return (req, res, next) => {
    const project = req.tenant?.projectId;
    if (project === undefined) return next();
    const held = inFlight.get(project) ?? 0;
    if (held >= limit) throw busy(limit);
    inFlight.set(project, held + 1);
    res.on('close', releaseSlot);
    next();
  };
}

/** An event stream that has started gives back its in-flight slot: its own caps bound it from then on. */
export function leaveInFlight(res: EventEmitter): void {
  for (const listener of res.listeners('close') as SlotReleaser[]) {
    if (!slotReleasers.has(listener)) continue;
    res.removeListener('close', listener);
    listener.call(res as ServerResponse);
  }
}
