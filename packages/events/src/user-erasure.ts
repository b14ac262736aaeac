import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import type { Logger } from '@platform/http';
import { isUuid } from '@platform/tenancy';
import type { EventBus, EventHandler } from './bus';
import { AUTH_EVENTS, type ErasingService, type UserDeletedData } from './contracts';
import type { EventEnvelope } from './envelope';
import { idempotent } from './idempotent-consumer';

/** The deleted user as the event names them: the e-mail is null for an anonymous user. */
export interface ErasedUser {
  userId: string;
  email: string | null;
}

export interface UserErasureOptions {
  service: ErasingService;
  /** Erases or anonymises what the service holds of the user in the owner's project, in the consumer's transaction. */
  erase(trx: Knex.Transaction, owner: Tenant, user: ErasedUser): Promise<void>;
}

export interface UserErasureDeps {
  db: Knex;
  bus: EventBus;
  logger: Logger;
}

/** The durable queue of a service's user erasure consumer, and its name in `processed_events`. */
export const userErasureQueue = (service: ErasingService) => `${service}.user-erasure`;

/**
 * Runs the service's `erase` once per `auth.user.deleted` (a user deleted by the project, or an
 * anonymous user pruned): the event id is recorded in the same transaction as the erasure, so a
 * redelivery does nothing and a failure is retried whole.
 */
export function userErasureHandler(
  deps: Pick<UserErasureDeps, 'db' | 'logger'>,
  options: UserErasureOptions,
): EventHandler {
  const handle = idempotent(deps.db, userErasureQueue(options.service), (trx, event) => {
    const data = event.data as Partial<UserDeletedData>;
    const email = typeof data.email === 'string' && data.email ? data.email : null;
    return options.erase(
      trx,
      { tenantId: event.tenantId, projectId: event.projectId },
      { userId: data.userId!, email },
    );
  });
  return async (envelope) => {
    const event = envelope as EventEnvelope<Partial<UserDeletedData> | undefined>;
    if (
      !isUuid(event.tenantId) ||
      !isUuid(event.projectId) ||
      typeof event.data?.userId !== 'string' ||
      !event.data.userId
    ) {
      // Acknowledged: no retry would make it valid, and a missing owner must never widen the erasure.
      deps.logger.error('user erasure event without a valid project or user, ignored', { eventId: event.id });
      return;
    }
    await handle(event);
  };
}

/** Subscribes the service's durable user erasure queue; deletions published while it was down wait there. */
export async function startUserErasure(
  deps: UserErasureDeps,
  options: UserErasureOptions,
): Promise<() => Promise<void>> {
  const handle = userErasureHandler(deps, options);
  let stopped = false;
  await deps.bus.subscribe({
    queue: userErasureQueue(options.service),
    topics: [AUTH_EVENTS.userDeleted],
    prefetch: 10,
    // An erasure must not end in the dead-letter queue while the database is only away a while.
    maxAttempts: 20,
    retryDelaysMs: [1_000, 5_000, 30_000, 120_000],
    handler: async (event) => {
      // A stopped consumer hands the message back rather than acknowledging it unhandled.
      if (stopped) throw new Error('user erasure is stopping');
      await handle(event);
    },
  });
  return async () => {
    stopped = true;
  };
}
