import type { ProjectSlots } from '@platform/limits';
import type { CmsConfig } from './config';
import type { ContentValidator } from './content-types/content-validation';
import type { PatternChecker } from './content-types/pattern-checker';

/** What the HTTP side and the jobs of one instance share, built once in `build`. */
export interface CmsShared {
  config: CmsConfig;
  /** Compiles schema patterns on its own thread; ended by `close()`. */
  patternChecker: PatternChecker;
  /** Schema compiles and content validation on budgeted threads; ended by `close()`. */
  contentValidator: ContentValidator;
  /** This process's webhook delivery slots, shared fairly by the projects. */
  webhookSlots: ProjectSlots;
}
