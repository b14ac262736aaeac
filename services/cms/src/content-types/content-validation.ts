import { BudgetPool, OverBudgetError, spawnServiceWorker } from '@platform/runtime';
import { errors, tooDeepMessage, type AppError } from '@platform/tenancy';
import type { ValidationReply, ValidationRequest } from './content-validation.thread';

export interface ValidationBudget {
  /** How long compiling one schema, or validating one document, may take on its thread. */
  timeMs: number;
  /** Heap of one validation thread, in MB. */
  memoryMb: number;
  /** Validation threads working at once. */
  threads: number;
  /** Checks one project may have waiting; beyond it, 429. */
  maxWaitingPerProject: number;
  /** Validation threads one project may hold at once. */
  threadsPerProject?: number;
  /** Checks of one project that may go over budget per minute; beyond, 429 until the minute ends. */
  overrunsPerMinute?: number;
  /** Thread time one project may use per second on average; beyond, 429 until it has time again. */
  projectMsPerSecond?: number;
  /** Most problems listed in one 400. */
  maxErrors: number;
}

const overBudget = (path: string, what: string, error: OverBudgetError, budget: ValidationBudget): AppError =>
  errors.validation(`${what} went over its ${error.limit} budget`, [
    {
      path,
      message:
        error.limit === 'time'
          ? `${what.toLowerCase()} took longer than its ${budget.timeMs} ms budget`
          : `${what.toLowerCase()} needed more than its ${budget.memoryMb} MB memory budget`,
    },
  ]);

/**
 * Compiling a tenant's JSON Schema and validating content against it run on a small pool of
 * worker threads (the validators are compiled and cached there), each within a time and
 * memory budget, projects taking turns; the list of problems is capped. A recursive `anyOf`
 * can take time and make errors exponential in the document's depth: over budget is a 400.
 */
export class ContentValidator {
  private readonly pool: BudgetPool<ValidationRequest, ValidationReply>;

  constructor(private readonly budget: ValidationBudget) {
    this.pool = new BudgetPool({
      name: 'content validation',
      threads: budget.threads,
      budgetMs: budget.timeMs,
      maxWaitingPerProject: budget.maxWaitingPerProject,
      threadsPerProject: budget.threadsPerProject,
      overruns: budget.overrunsPerMinute ? { limit: budget.overrunsPerMinute, windowMs: 60_000 } : undefined,
      projectMsPerSecond: budget.projectMsPerSecond,
      spawn: () =>
        spawnServiceWorker({
          callerFile: __filename,
          source: 'content-validation.worker.ts',
          bundled: 'content-types/content-validation.worker.js',
          resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb, maxYoungGenerationSizeMb: 16 },
        }),
    });
  }

  /** 400 unless the schema compiles within the budget. */
  async assertCompiles(project: string, schema: Record<string, unknown>): Promise<void> {
    const reply = await this.call(project, { kind: 'compile', schema }, 'schema', 'Schema compilation');
    if (reply.kind === 'badSchema') throw errors.validation(reply.message, reply.details);
  }

  /** 400 unless `content` is a JSON document that the type's schema accepts within the budget. */
  async assertValid(
    project: string,
    type: { id: string; name: string; schema: Record<string, unknown> },
    content: string,
  ): Promise<void> {
    const request: ValidationRequest = {
      kind: 'validate',
      typeId: type.id,
      schema: type.schema,
      content,
      maxErrors: this.budget.maxErrors,
    };
    const reply = await this.call(project, request, 'content', 'Content validation');
    switch (reply.kind) {
      case 'valid':
        return;
      case 'notJson':
        throw errors.validation('Content is not a JSON document', [
          { path: 'content', message: `content of a '${type.name}' item must be a JSON document (string)` },
        ]);
      case 'tooDeep':
        throw errors.validation('Content nests too deeply', [
          {
            path: ['content', reply.path === '(root)' ? [] : reply.path].flat().join('.'),
            message: tooDeepMessage(reply.maxDepth),
          },
        ]);
      case 'unevaluable':
        throw errors.validation(`The '${type.name}' schema cannot be evaluated on this content`, [
          { path: 'content', message: `the '${type.name}' schema loops or fails on this document` },
        ]);
      case 'invalid': {
        const more =
          reply.total > reply.details.length ? ` (first ${reply.details.length} of ${reply.total} problems)` : '';
        throw errors.validation(`Content does not match the '${type.name}' schema${more}`, reply.details);
      }
      case 'badSchema':
        throw errors.validation(reply.message, reply.details);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async call(project: string, request: ValidationRequest, path: string, what: string) {
    try {
      return await this.pool.run(project, request);
    } catch (error) {
      if (error instanceof OverBudgetError) throw overBudget(path, what, error, this.budget);
      throw error;
    }
  }
}
