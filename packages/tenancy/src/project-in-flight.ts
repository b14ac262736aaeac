import type { RequestHandler } from 'express';
import { AppError } from './errors';
import { ProjectSlots } from './project-slots';

const busy = (limit: number) =>
  new AppError('RATE_LIMITED', `This project already has ${limit} requests in progress here; try again`, {
    headers: { 'Retry-After': '1' },
  });

/**
 * At most `limit` requests of one project in progress at once in this process (after the key
 * check): a project firing many slow requests in parallel fills its share of the database pool
 * and the event loop, not everyone's; beyond it, 429 before any work. A request holds its slot
 * until its response starts, so a live stream (headers sent at once, capped on its own) does
 * not keep one for its whole life.
 */
export function projectInFlight(limit: number): RequestHandler {
  const slots = new ProjectSlots({ perProject: limit });
  return (req, res, next) => {
    const project = req.tenant?.projectId;
    if (project === undefined) return next();
    const release = slots.tryAcquire(project);
    if (!release) throw busy(limit);
    const { writeHead } = res;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      release();
      return writeHead.apply(this, args);
    } as typeof writeHead;
    res.once('close', release);
    next();
  };
}
