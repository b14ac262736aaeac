import { parentPort } from 'node:worker_threads';

/** A request to a budget thread and its answer (see budget-pool.ts). */
export interface BudgetRequest<Req> {
  id: number;
  request: Req;
}
export type BudgetReply<Res> = { id: number; ok: true; value: Res } | { id: number; ok: false; error: string };
export type BudgetThreadMessage<Res> = { ready: true } | BudgetReply<Res>;

/**
 * The thread side of a BudgetPool: answers each request with `handle`'s result. Kept apart
 * from the package's index so that a thread loads only this and its own handler.
 */
export function serveBudgetRequests<Req, Res>(handle: (request: Req) => Res): void {
  const port = parentPort;
  if (!port) throw new Error('serveBudgetRequests runs in a worker thread');
  port.on('message', ({ id, request }: BudgetRequest<Req>) => {
    let reply: BudgetReply<Res>;
    try {
      reply = { id, ok: true, value: handle(request) };
    } catch (error) {
      reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies BudgetThreadMessage<Res>);
}
