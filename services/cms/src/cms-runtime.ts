import type { ServiceDeps } from '@platform/runtime';
import { ProjectSlots } from '@platform/tenancy';
import { loadCmsConfig, type CmsConfig } from './config';
import { ContentValidator } from './content-types/content-validation';
import { PatternChecker } from './content-types/pattern-checker';

/** What the HTTP app and the background work of one service instance share. */
export interface CmsRuntime {
  config: CmsConfig;
  /** Its thread is stopped by the stop function of `startBackground`. */
  patternChecker: PatternChecker;
  /** Schema compiles and content validation on budgeted threads; stopped with the pattern checker. */
  contentValidator: ContentValidator;
  /** This process's webhook delivery slots, shared fairly by the projects. */
  webhookSlots: ProjectSlots;
}

const runtimes = new WeakMap<ServiceDeps, CmsRuntime>();

export function cmsRuntime(deps: ServiceDeps): CmsRuntime {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    const config = loadCmsConfig(deps.env);
    runtime = {
      config,
      patternChecker: new PatternChecker({ budgetMs: config.patternCompileBudgetMs, logger: deps.logger }),
      contentValidator: new ContentValidator(config.validationBudget),
      webhookSlots: new ProjectSlots({
        total: deps.config.webhooks.slots,
        perProject: deps.config.webhooks.projectSlots,
      }),
    };
    runtimes.set(deps, runtime);
  }
  return runtime;
}
