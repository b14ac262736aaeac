import type { Knex } from 'knex';
import { ERASING_SERVICES, PLATFORM_EVENTS, type EventBus, type ProjectErasedData } from '@platform/events';
import { insertConfirmation } from './erasure.repository';

export const ERASED_QUEUE = 'console.project-erased';

/** Records a service's confirmation; a repeated one changes nothing. */
export async function subscribeErasureConfirmations(db: Knex, bus: EventBus): Promise<void> {
  await bus.subscribe({
    queue: ERASED_QUEUE,
    topics: [PLATFORM_EVENTS.projectErased],
    handler: async (event) => {
      const data = event.data as ProjectErasedData;
      if (!(ERASING_SERVICES as readonly string[]).includes(data.service)) return;
      await insertConfirmation(db, data.projectId, data.service, new Date(data.erasedAt));
    },
  });
}
