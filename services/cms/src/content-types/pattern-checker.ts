import { type Logger } from '@platform/http';
import { errors } from '@platform/tenancy';
import { PatternCompileThread, type SpawnCompileWorker } from './pattern-compile-thread';
import { patternsOf, type SchemaPattern } from './schema-patterns';

/**
 * Longest pattern checked at all. Compile time does not follow length (`^[a-z]{1,1000}$` is 15
 * characters and takes hundreds of milliseconds), so the budget is the real limit; this only
 * refuses oversized patterns without taking the shared thread, far above any field format
 * (long lists of alternatives belong in `enum`).
 */
export const MAX_PATTERN_LENGTH = 1_000;

/**
 * Checks one project may have waiting (besides the one running). Beyond it a check is refused with 429 at once:
 * checks are answered one at a time, so a longer line only means answers later than a client waits.
 */
export const MAX_WAITING_PER_PROJECT = 10;

/** How long a new thread may take to load before checks give up on it (not part of the budget). */
const STARTUP_TIMEOUT_MS = 15_000;

export interface PatternCheckerOptions {
  /** How long all the patterns of one schema may take to compile together. */
  budgetMs: number;
  logger: Logger;
  spawn?: SpawnCompileWorker;
}

const tooComplex = (at: SchemaPattern, budgetMs: number) =>
  errors.validation('schema has a pattern that is too complex to compile', [
    {
      path: at.path,
      message: `pattern is too complex to compile (a schema's patterns must compile within ${budgetMs} ms together)`,
    },
  ]);

const tooLong = (at: SchemaPattern) =>
  errors.validation('schema has a pattern that is too long', [
    { path: at.path, message: `pattern is longer than ${MAX_PATTERN_LENGTH} characters` },
  ]);

const closedError = () => errors.unavailable('The service is shutting down; try again');

const tooManyWaiting = (budgetMs: number) =>
  errors.rateLimited(
    `This project already has ${MAX_WAITING_PER_PROJECT} schema checks waiting`,
    Math.max(1, Math.ceil((MAX_WAITING_PER_PROJECT * budgetMs) / 1000)),
  );

interface WaitingCheck {
  patterns: SchemaPattern[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * RE2 runs in linear time but can take seconds to compile a pattern, synchronously; on the main
 * thread that would stall every tenant's requests. A new schema's patterns are compiled first on
 * a worker thread: when they are not all compiled within the budget, the thread is terminated
 * (a fresh one starts for the next check) and the schema is refused, naming the pattern being
 * compiled. A schema that passes is then compiled on the main thread in about the same time.
 * One thread, one schema at a time, each bounded by the budget; the projects with checks waiting
 * take turns, so one project sending slow schemas delays another's check by a budget or two,
 * not by its whole line.
 */
export class PatternChecker {
  private thread: PatternCompileThread | undefined;
  /** Each project's checks in arrival order; the Map's order is the order of turns. */
  private readonly waiting = new Map<string, WaitingCheck[]>();
  private pumping = false;
  private closed = false;
  private compiling = false;

  constructor(private readonly options: PatternCheckerOptions) {}

  /** True while a schema's patterns are being compiled on the thread. */
  get busy(): boolean {
    return this.compiling;
  }

  /**
   * Resolves when the schema's patterns may be compiled here; 400 VALIDATION_ERROR when not,
   * 429 when `project` already has MAX_WAITING_PER_PROJECT checks waiting.
   */
  async check(schema: Record<string, unknown>, project = ''): Promise<void> {
    const patterns = patternsOf(schema);
    if (patterns.length === 0) return;
    const long = patterns.find((p) => p.pattern.length > MAX_PATTERN_LENGTH);
    if (long) throw tooLong(long);
    const mine = this.waiting.get(project) ?? [];
    if (mine.length >= MAX_WAITING_PER_PROJECT) throw tooManyWaiting(this.options.budgetMs);
    const checked = new Promise<void>((resolve, reject) => mine.push({ patterns, resolve, reject }));
    this.waiting.set(project, mine);
    void this.pump();
    return checked;
  }

  /** Stops the thread; checks still waiting fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  /** Runs the waiting checks one at a time, one per project in turn. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let turn = this.waiting.entries().next(); !turn.done; turn = this.waiting.entries().next()) {
        const [project, checks] = turn.value;
        // The project's next check runs now, and the project goes to the back of the line.
        const check = checks.shift()!;
        this.waiting.delete(project);
        if (checks.length) this.waiting.set(project, checks);
        await this.compileWithinBudget(check.patterns).then(check.resolve, check.reject);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async compileWithinBudget(patterns: SchemaPattern[]): Promise<void> {
    const thread = await this.readyThread();
    const { budgetMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<'over budget'>((resolve) => {
      timer = setTimeout(() => resolve('over budget'), budgetMs);
    });
    this.compiling = true;
    const outcome = await Promise.race([
      thread.compile(patterns.map((p) => p.pattern)).then(
        () => 'compiled' as const,
        (error: unknown) => error as Error,
      ),
      overBudget,
    ]).finally(() => {
      clearTimeout(timer);
      this.compiling = false;
    });
    if (outcome === 'compiled') return;
    if (this.closed) throw closedError();
    const at = patterns[thread.current] ?? patterns[0];
    this.discard(thread);
    if (outcome !== 'over budget') {
      // Not expected (RE2's own failures are caught in the thread): fail closed, never compile it here.
      this.options.logger.error('pattern compile thread failed during a check', {
        error: String(outcome),
        path: at.path,
      });
    }
    throw tooComplex(at, budgetMs);
  }

  private async readyThread(): Promise<PatternCompileThread> {
    if (this.closed) throw closedError();
    if (!this.thread?.usable) this.thread = new PatternCompileThread(this.options.spawn);
    const thread = this.thread;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        thread.ready,
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error('pattern compile thread did not start in time')),
            STARTUP_TIMEOUT_MS,
          );
        }),
      ]);
      return thread;
    } catch (error) {
      if (this.closed) throw closedError();
      this.discard(thread);
      this.options.logger.error('pattern compile thread could not start', { error: String(error) });
      throw errors.unavailable('Patterns cannot be checked at the moment; try again');
    } finally {
      clearTimeout(timer);
    }
  }

  private discard(thread: PatternCompileThread): void {
    if (this.thread === thread) this.thread = undefined;
    thread.terminate().catch(() => undefined);
  }
}
