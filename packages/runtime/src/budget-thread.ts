import { setPriority } from 'node:os';
import { createContext, Script } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { threadCpuClock } from './thread-cpu-clock';

/** A request to a budget thread and its answer (see budget-pool.ts). */
export interface BudgetRequest<Req> {
  id: number;
  request: Req;
  /** The request's time budget: an interruptible thread stops the work itself when it is spent. */
  budgetMs?: number;
}
/** `cpuMs`: the CPU time the thread spent on the request, where it can tell (Linux). */
export type BudgetReply<Res> = (
  | { id: number; ok: true; value: Res }
  | { id: number; ok: false; error: string; overBudget?: true }
) & { cpuMs?: number };
/** `interruptible`: the thread stops work over its budget itself and stays usable (see serveBudgetRequests). */
export type BudgetThreadMessage<Res> = { ready: true; interruptible?: boolean } | BudgetReply<Res>;

export interface BudgetThreadOptions {
  /**
   * Stop a request's work when its budget is spent (a vm timeout) instead of having the pool
   * terminate the thread, which then has to load afresh. Only for handlers whose state stays
   * consistent when interrupted at any point (pure JavaScript with caches at most), or that
   * leave behind in `onInterrupted` what may be half changed (a WebAssembly heap).
   */
  interruptible?: boolean;
  /** Called after a request was stopped at its budget: leave behind what it may have left half changed. */
  onInterrupted?: () => void;
}

// One context and script for every request: the vm's timeout stops whatever JavaScript `run`
// calls, in any context, and leaves the thread ready for the next request.
const timed = createContext({ run: undefined as (() => unknown) | undefined });
const callRun = new Script('run()');

/** The OS priority (nice) of a budget thread: below the request threads' 0. */
export const BUDGET_THREAD_NICE = 10;

/**
 * Budget threads give way to the process's other threads, so tenant-defined work running to its
 * budget slows other projects' requests as little as the machine allows. Linux keeps a nice
 * value per thread, so this lowers only the calling thread; elsewhere it would lower the whole
 * process, so it is left alone there.
 */
function giveWayToRequests(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(BUDGET_THREAD_NICE);
  } catch {
    // Not allowed in this sandbox: the thread keeps the usual priority; its budgets still hold.
  }
}

const isTimeout = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/**
 * The thread side of a BudgetPool: answers each request with `handle`'s result. Kept apart
 * from the package's index so that a thread loads only this and its own handler.
 */
export function serveBudgetRequests<Req, Res>(handle: (request: Req) => Res, options: BudgetThreadOptions = {}): void {
  const port = parentPort;
  if (!port) throw new Error('serveBudgetRequests runs in a worker thread');
  const { interruptible = false } = options;
  giveWayToRequests();
  // A project's share of thread time is charged by CPU time, not by the wall clock: a thread that
  // gives way to request handling is not the project's doing.
  const cpuClock = threadCpuClock();
  port.on('message', ({ id, request, budgetMs }: BudgetRequest<Req>) => {
    const cpuAtStart = cpuClock?.();
    let reply: BudgetReply<Res>;
    try {
      if (interruptible && budgetMs) {
        timed.run = () => handle(request);
        reply = { id, ok: true, value: callRun.runInContext(timed, { timeout: budgetMs }) as Res };
      } else {
        reply = { id, ok: true, value: handle(request) };
      }
    } catch (error) {
      if (isTimeout(error)) {
        options.onInterrupted?.();
        reply = { id, ok: false, error: 'over its time budget', overBudget: true };
      } else {
        reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    } finally {
      timed.run = undefined;
    }
    if (cpuAtStart !== undefined) reply.cpuMs = cpuClock!() - cpuAtStart;
    port.postMessage(reply);
  });
  port.postMessage({ ready: true, interruptible } satisfies BudgetThreadMessage<Res>);
}
