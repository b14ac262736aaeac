import { startProjectErasure, type ErasingService } from '@platform/events';
import type { Job, ServiceDeps } from './service-definition';

/**
 * The job that erases a deleted project's rows from the service's database (issue #33): the
 * service only names its tables, in the order they are emptied.
 */
export function projectErasureJob(deps: ServiceDeps, service: ErasingService, tables: readonly string[]): Job {
  return { name: 'project erasure', start: () => startProjectErasure(deps, { service, tables }) };
}
