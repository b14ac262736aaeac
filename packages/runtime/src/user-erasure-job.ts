import { startUserErasure, type ErasingService, type UserErasureOptions } from '@platform/events';
import type { Job, ServiceDeps } from './service-definition';

/**
 * The job that erases a deleted user's data from the service's database on `auth.user.deleted`:
 * the service only says what erasing one user means for its tables.
 */
export function userErasureJob(deps: ServiceDeps, service: ErasingService, erase: UserErasureOptions['erase']): Job {
  return { name: 'user erasure', start: () => startUserErasure(deps, { service, erase }) };
}
