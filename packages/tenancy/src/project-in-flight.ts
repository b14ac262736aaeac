import type { RequestHandler } from 'express';
import { errors } from './errors';
import { ProjectSlots } from '@platform/limits';

// The refusal names the project as the offender, so the error handler holds it (HeldRefusals):
// a project whose slots are taken (by slow bodies, say) and that retries at once is answered once
// a second per connection, not thousands of times, each of which everyone's event loop would pay for.
// Its Retry-After outlasts the hold, so the client still hears to wait when the answer comes.
const busy = (limit: number, project: string) =>
  errors.rateLimited(`This project already has ${limit} requests in progress here; try again`, 2, {
    offender: `project ${project} in flight`,
  });

/** The slot each request in progress holds, by its response (no property added to the response). */
const held = new WeakMap<object, () => void>();

/**
 * At most `limit` requests of one project in progress at once in this process (after the key
 * check): a project firing many slow requests in parallel fills its share of the database pool
 * and the event loop, not everyone's; beyond it, 429 before any work, held a while like every
 * repeat offender's. A request holds its slot
 * until its response closes; an event stream hands it back once it has started
 * (`leaveInFlight`), its own caps bounding it from then on.
 */
export function projectInFlight(limit: number): RequestHandler {
  const slots = new ProjectSlots({ perProject: limit });
  return (req, res, next) => {
    const project = req.tenant?.projectId;
    if (project === undefined) return next();
    const release = slots.tryAcquire(project);
    if (!release) throw busy(limit, project);
    held.set(res, release);
    res.once('close', release);
    next();
  };
}

/** An event stream that has started gives back its in-flight slot: its own caps bound it from then on. */
export function leaveInFlight(res: object): void {
  held.get(res)?.();
}
