import type { Worker } from 'node:worker_threads';
import { AppError, errors } from '@platform/tenancy';
import { FixedWindowCounter } from '@platform/limits';
import type { BudgetRequest, BudgetThreadMessage } from './budget-thread';
import { TimeShare } from './time-share';
import { inRecordedTrace, inSpan } from '@platform/telemetry';

/** How a budgeted request ended, for its span: over budget (time or memory), refused (429, 503) or failed. */
function budgetOutcomeOf(error: unknown): string {
  if (error instanceof OverBudgetError) return `over budget (${error.limit})`;
  if (error instanceof AppError) return `refused (${error.code})`;
  return 'failed';
}

/** Which budget a request went over: its time, or its thread's memory (resourceLimits). */
export type BudgetLimit = 'time' | 'memory';

export class OverBudgetError extends Error {
  constructor(
    readonly limit: BudgetLimit,
    message: string,
  ) {
    super(message);
    this.name = 'OverBudgetError';
  }
}

export interface BudgetPoolOptions {
  /** Names the work in messages ("template render"). */
  name: string;
  /** Starts one thread running serveBudgetRequests (with its resourceLimits). */
  spawn: () => Worker;
  /** Threads working at once. */
  threads: number;
  /** How long one request may run on its thread; the thread is terminated after it. */
  budgetMs: number;
  /** Requests one project may have waiting; beyond it, 429 at once. */
  maxWaitingPerProject: number;
  /** How long a new thread may take to load (not part of any budget). */
  startupTimeoutMs?: number;
  /**
   * Threads one project may hold at once (default 1): a project with a long line leaves the
   * others' threads (and cores) free for other projects.
   */
  threadsPerProject?: number;
  /**
   * Requests of one project that may go over budget per window (default 3 per 60 s); beyond,
   * its requests get 429 until the window ends. Every overrun costs a thread's whole budget
   * and a fresh thread's start-up, so a project that keeps overrunning would otherwise keep
   * the cores busy for everyone.
   */
  overruns?: { limit: number; windowMs: number };
  /**
   * Thread time one project may use per second on average (default a quarter of a thread),
   * in bursts of up to four budgets; beyond, 429 until it has time again. Without it one
   * project whose every request runs just under the budget keeps its threads busy, and on a
   * small machine its cores, for as long as it keeps sending.
   */
  projectMsPerSecond?: number;
}

interface Job<Req, Res> {
  request: Req;
  resolve: (value: Res) => void;
  reject: (error: unknown) => void;
}

/** An interruptible thread stopped the work itself at its budget, and stays usable. */
class StoppedAtBudget extends Error {}

/** One worker thread answering one request at a time; unusable once it failed or exited. */
class BudgetThread<Req, Res> {
  readonly ready: Promise<void>;
  /** Stops work over its budget itself (serveBudgetRequests' `interruptible`), so it need not be terminated. */
  interruptible = false;
  private failure: (Error & { code?: string }) | undefined;
  private pending: { id: number; resolve: (value: Res) => void; reject: (error: Error) => void } | undefined;
  /** The CPU time the last answered request took, when the thread reports it (else undefined). */
  lastCpuMs: number | undefined;
  private nextId = 1;
  private readonly worker: Worker;

  constructor(spawn: () => Worker) {
    this.worker = spawn();
    let markReady!: () => void;
    let failReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: BudgetThreadMessage<Res>) => {
      if ('ready' in message) {
        this.interruptible = message.interruptible === true;
        return markReady();
      }
      if (this.pending?.id !== message.id) return;
      const { resolve, reject } = this.pending;
      this.pending = undefined;
      this.lastCpuMs = message.cpuMs;
      if (message.ok) resolve(message.value);
      else reject(message.overBudget ? new StoppedAtBudget(message.error) : new Error(message.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      failReady(this.failure);
      this.pending?.reject(this.failure);
      this.pending = undefined;
    };
    // Without an 'error' listener an exception in the thread (or running out of memory) would be thrown here.
    this.worker.on('error', fail);
    this.worker.on('messageerror', fail);
    this.worker.on('exit', (code) => fail(new Error(`thread exited (code ${code})`)));
    this.worker.unref();
  }

  get usable(): boolean {
    return this.failure === undefined;
  }

  call(request: Req, budgetMs: number): Promise<Res> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    this.lastCpuMs = undefined;
    return new Promise<Res>((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.worker.postMessage({ id, request, budgetMs } satisfies BudgetRequest<Req>);
    });
  }

  async terminate(): Promise<void> {
    this.failure ??= new Error('thread was terminated');
    await this.worker.terminate();
  }
}

const isOutOfMemory = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Runs tenant-defined work (template rendering, schema validation) on a few worker threads,
 * each request within a time budget (an interruptible thread stops the work itself; any other
 * is terminated when it overruns, and a fresh one takes its place) and the threads' memory
 * limits. Projects with requests waiting take turns (fewest running first, then longest since
 * their last turn), so one project's slow requests delay another's by about a budget, not by
 * its whole line; a project with `maxWaitingPerProject` requests waiting gets 429 at once.
 */
export class BudgetPool<Req, Res> {
  private readonly idle: BudgetThread<Req, Res>[] = [];
  /** Every thread started and not yet terminated, idle or not. */
  private readonly threads = new Set<BudgetThread<Req, Res>>();
  /** Requests on a thread (or waiting for one to start), by project. */
  private readonly activeByProject = new Map<string, number>();
  /** When each project with requests waiting or running last had a turn (a counter). */
  private readonly lastTurn = new Map<string, number>();
  private turns = 0;
  /** Each project's requests in arrival order. */
  private readonly waiting = new Map<string, Job<Req, Res>[]>();
  private active = 0;
  private closed = false;
  private readonly threadsPerProject: number;
  private readonly overruns: FixedWindowCounter;
  private readonly timeShare: TimeShare;

  constructor(private readonly options: BudgetPoolOptions) {
    this.threadsPerProject = Math.max(1, Math.min(options.threads, options.threadsPerProject ?? 1));
    const { limit, windowMs } = options.overruns ?? DEFAULT_OVERRUNS;
    this.overruns = new FixedWindowCounter(limit, windowMs);
    this.timeShare = new TimeShare(options.projectMsPerSecond ?? 250, 4 * options.budgetMs);
  }

  /** The handler's result; OverBudgetError over budget, 429 when the project's line is full, 503 once closed. */
  run(project: string, request: Req): Promise<Res> {
    if (!inRecordedTrace()) return this.enqueue(project, request);
    return inSpan(
      this.options.name,
      { attributes: { 'platform.project.id': project, 'platform.budget.ms': this.options.budgetMs } },
      async (span) => {
        try {
          const result = await this.enqueue(project, request);
          span.setAttribute('platform.budget.outcome', 'done');
          return result;
        } catch (error) {
          span.setAttribute('platform.budget.outcome', budgetOutcomeOf(error));
          throw error;
        }
      },
    );
  }

  private enqueue(project: string, request: Req): Promise<Res> {
    if (this.closed) return Promise.reject(closedError());
    const refusal = this.refusalOf(project);
    if (refusal) return Promise.reject(refusal);
    const mine = this.waiting.get(project) ?? [];
    if (mine.length >= this.options.maxWaitingPerProject) return Promise.reject(this.lineFull(project));
    const result = new Promise<Res>((resolve, reject) => mine.push({ request, resolve, reject }));
    this.waiting.set(project, mine);
    this.pump();
    return result;
  }

  /** Stops every thread; requests still waiting fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const jobs of this.waiting.values()) for (const job of jobs) job.reject(closedError());
    this.waiting.clear();
    this.idle.length = 0;
    await Promise.all([...this.threads].map((thread) => this.discard(thread)));
  }

  /** The 429 for a project that went over budget too often or used up its thread time; undefined when it may run. */
  private refusalOf(project: string): AppError | undefined {
    const blocked = this.overruns.blockedFor(project);
    if (blocked) return this.tooManyOverruns(blocked, project);
    const spent = this.timeShare.blockedFor(project);
    if (spent) return this.timeSpent(spent, project);
    return undefined;
  }

  // The refusals below name the project and pool as the offender: the error handler may hold
  // them (HeldRefusals), so a project that retries at once is not answered thousands of times a second.
  private offender(project: string): string {
    return `project ${project} ${this.options.name}`;
  }

  private lineFull(project: string): AppError {
    const { maxWaitingPerProject, budgetMs, name } = this.options;
    const seconds = Math.max(1, Math.ceil((maxWaitingPerProject * budgetMs) / 1000));
    return errors.rateLimited(`This project already has ${maxWaitingPerProject} ${name} requests waiting`, seconds, {
      offender: this.offender(project),
    });
  }

  private tooManyOverruns(seconds: number, project: string): AppError {
    const { name } = this.options;
    return errors.rateLimited(`This project's ${name} requests went over budget too often; try again later`, seconds, {
      offender: this.offender(project),
    });
  }

  private timeSpent(seconds: number, project: string): AppError {
    return new AppError(
      'RATE_LIMITED',
      `This project has used its share of ${this.options.name} time; try again later`,
      {
        headers: { 'Retry-After': String(seconds) },
        offender: this.offender(project),
      },
    );
  }

  /**
   * The next project to serve: the fewest requests running, then the longest since its last
   * turn; undefined when every project waiting already holds its share of the threads.
   */
  private nextProject(): string | undefined {
    let best: string | undefined;
    let bestRank: [number, number] = [Infinity, Infinity];
    for (const project of this.waiting.keys()) {
      const running = this.activeByProject.get(project) ?? 0;
      if (running >= this.threadsPerProject) continue;
      const rank: [number, number] = [running, this.lastTurn.get(project) ?? 0];
      if (rank[0] < bestRank[0] || (rank[0] === bestRank[0] && rank[1] < bestRank[1])) {
        best = project;
        bestRank = rank;
      }
    }
    return best;
  }

  private pump(): void {
    while (this.active < this.options.threads && this.waiting.size > 0) {
      const project = this.nextProject();
      if (project === undefined) return;
      const jobs = this.waiting.get(project)!;
      const refusal = this.refusalOf(project);
      if (refusal) {
        // Its earlier requests went over budget too often or used up its time while these
        // waited: refused now, not run (each would cost a budget, an overrun a thread's start too).
        this.waiting.delete(project);
        for (const waiting of jobs) waiting.reject(refusal);
        if (!this.activeByProject.has(project)) this.lastTurn.delete(project);
        continue;
      }
      const job = jobs.shift()!;
      if (!jobs.length) this.waiting.delete(project);
      this.lastTurn.set(project, ++this.turns);
      this.active++;
      this.activeByProject.set(project, (this.activeByProject.get(project) ?? 0) + 1);
      void this.execute(project, job).finally(() => {
        this.active--;
        const left = this.activeByProject.get(project)! - 1;
        if (left) this.activeByProject.set(project, left);
        else this.activeByProject.delete(project);
        if (!left && !this.waiting.has(project)) this.lastTurn.delete(project);
        this.pump();
      });
    }
  }

  private spawnThread(): BudgetThread<Req, Res> {
    const thread = new BudgetThread<Req, Res>(this.options.spawn);
    this.threads.add(thread);
    return thread;
  }

  private async discard(thread: BudgetThread<Req, Res>): Promise<void> {
    this.threads.delete(thread);
    await thread.terminate().catch(() => undefined);
  }

  private async execute(project: string, job: Job<Req, Res>): Promise<void> {
    let thread: BudgetThread<Req, Res>;
    try {
      thread = await this.readyThread();
    } catch (error) {
      return job.reject(error);
    }
    const { budgetMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    // An interruptible thread stops at the budget itself; terminating it is the backstop, a
    // little later, for work its timeout cannot stop (a long call into native code).
    const overBudget = new Promise<'over budget'>((resolve) => {
      timer = setTimeout(
        () => resolve('over budget'),
        thread.interruptible ? budgetMs + Math.max(100, budgetMs / 2) : budgetMs,
      );
    });
    const started = Date.now();
    const answer = await Promise.race([
      thread.call(job.request, budgetMs).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      overBudget,
    ]);
    clearTimeout(timer);
    // The thread's own CPU time when it reports it; the wall clock otherwise (and for work it never answered).
    this.timeShare.charge(project, thread.lastCpuMs ?? Date.now() - started);
    // Stopped by the thread itself: over budget like any overrun, but the thread is kept.
    const stoppedAtBudget = answer !== 'over budget' && 'error' in answer && answer.error instanceof StoppedAtBudget;
    const outcome = stoppedAtBudget ? 'over budget' : answer;
    if (outcome === 'over budget' || ('error' in outcome && isOutOfMemory(outcome.error))) {
      this.overruns.record(project);
    }
    if (answer !== 'over budget' && thread.usable && !this.closed) {
      this.idle.push(thread);
    } else {
      void this.discard(thread);
      // The replacement starts loading now, so the next request does not wait for it.
      if (!this.closed) this.idle.push(this.spawnThread());
    }
    if (this.closed) return job.reject(closedError());
    const { name } = this.options;
    if (outcome === 'over budget') {
      return job.reject(new OverBudgetError('time', `${name} took longer than its ${budgetMs} ms budget`));
    }
    if ('value' in outcome) return job.resolve(outcome.value);
    if (isOutOfMemory(outcome.error)) {
      return job.reject(new OverBudgetError('memory', `${name} needed more memory than its budget`));
    }
    job.reject(outcome.error);
  }

  private async readyThread(): Promise<BudgetThread<Req, Res>> {
    if (this.closed) throw closedError();
    let thread = this.idle.pop();
    while (thread && !thread.usable) thread = this.idle.pop();
    thread ??= this.spawnThread();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        thread.ready,
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error('thread did not start in time')),
            this.options.startupTimeoutMs ?? 15_000,
          );
        }),
      ]);
      if (this.closed) throw closedError();
      return thread;
    } catch {
      void this.discard(thread);
      if (this.closed) throw closedError();
      throw errors.unavailable(`The ${this.options.name} threads cannot start at the moment; try again`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const DEFAULT_OVERRUNS = { limit: 3, windowMs: 60_000 };

const closedError = () => errors.unavailable('The service is shutting down; try again');
