import { BudgetPool, OverBudgetError, spawnServiceWorker } from '@platform/runtime';
import { errors, type AppError, type ErrorDetail } from '@platform/tenancy';
import type { RenderedEmail, TemplateSource } from './template-engine';
import type { RenderReply, RenderRequest } from './template-render.thread';

export interface RenderBudget {
  /** How long one check or render may take on its thread. */
  timeMs: number;
  /** Largest rendering (subject, html and text together), in characters. */
  maxOutputChars: number;
  /** Heap of one render thread, in MB: a rendering that needs more is over budget. */
  memoryMb: number;
  /** Render threads working at once. */
  threads: number;
  /** Checks and renders one project may have waiting; beyond it, 429. */
  maxWaitingPerProject: number;
  /** Render threads one project may hold at once. */
  threadsPerProject?: number;
  /** Renderings of one project that may go over budget per minute; beyond, 429 until the minute ends. */
  overrunsPerMinute?: number;
  /** Thread time one project may use per second on average; beyond, 429 until it has time again. */
  projectMsPerSecond?: number;
  /** Compiled templates each thread keeps. */
  cacheSize: number;
}

export interface StoredTemplate extends TemplateSource {
  id: string;
  updatedAt: Date;
}

const overBudget = (path: string, error: OverBudgetError, budget: RenderBudget): AppError => {
  const message =
    error.limit === 'time'
      ? `rendering took longer than its ${budget.timeMs} ms budget`
      : `rendering needed more than its ${budget.memoryMb} MB memory budget`;
  return errors.validation(`Template rendering went over its ${error.limit} budget`, [{ path, message }]);
};

/**
 * Every rendering of a tenant's template (create and update checks, preview, send, auth
 * e-mails) goes through here: on a small pool of worker threads, each within a time, memory
 * and output budget, projects taking turns. Over budget is the caller's 400.
 */
export class TemplateRenderer {
  private readonly pool: BudgetPool<RenderRequest, RenderReply>;

  constructor(private readonly budget: RenderBudget) {
    this.pool = new BudgetPool({
      name: 'template render',
      threads: budget.threads,
      budgetMs: budget.timeMs,
      maxWaitingPerProject: budget.maxWaitingPerProject,
      threadsPerProject: budget.threadsPerProject,
      overruns: budget.overrunsPerMinute ? { limit: budget.overrunsPerMinute, windowMs: 60_000 } : undefined,
      projectMsPerSecond: budget.projectMsPerSecond,
      spawn: () =>
        spawnServiceWorker({
          callerFile: __filename,
          source: 'template-render.worker.ts',
          bundled: 'templates/template-render.worker.js',
          workerData: { cacheSize: budget.cacheSize },
          resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb, maxYoungGenerationSizeMb: 16 },
        }),
    });
  }

  /** Problems that would stop the template from rendering, one per field; empty when usable. */
  async problemsWithinBudget(project: string, source: Partial<TemplateSource>): Promise<ErrorDetail[]> {
    const reply = await this.call(project, { kind: 'problems', source }, 'template');
    return reply.kind === 'problems' ? reply.problems : [];
  }

  /** The rendered e-mail; 400 when the data cannot be rendered or the rendering goes over a budget. */
  async renderWithinBudget(
    project: string,
    template: TemplateSource | StoredTemplate,
    data: object,
  ): Promise<RenderedEmail> {
    const { subject, html, text } = template;
    const stored = 'id' in template ? { id: template.id, updatedAtMs: template.updatedAt.getTime() } : {};
    const request: RenderRequest = {
      kind: 'render',
      template: { subject, html, text, ...stored },
      data,
      maxOutputChars: this.budget.maxOutputChars,
    };
    const reply = await this.call(project, request, 'templateData');
    if (reply.kind === 'rendered') return reply.email;
    if (reply.kind === 'tooLarge') {
      throw errors.validation('Template rendering went over its output budget', [
        {
          path: 'templateData',
          message: `rendering is ${reply.chars} characters, more than its ${this.budget.maxOutputChars} character budget`,
        },
      ]);
    }
    throw errors.validation('Template could not be rendered with this data', [
      { path: 'templateData', message: reply.kind === 'failed' ? reply.message : 'unexpected reply' },
    ]);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async call(project: string, request: RenderRequest, path: string): Promise<RenderReply> {
    try {
      return await this.pool.run(project, request);
    } catch (error) {
      if (error instanceof OverBudgetError) throw overBudget(path, error, this.budget);
      throw error;
    }
  }
}
