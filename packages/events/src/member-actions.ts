import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { MemberAction, MemberActionSink } from '@platform/tenancy';
import { PLATFORM_EVENTS, type ErasingService, type MemberActionData } from './contracts';
import { writeEvent } from './outbox';

/**
 * Sends a service's member writes to the console's audit log as `platform.member.action`,
 * through the service's outbox: recorded after the response, so an audit write never delays
 * or fails the request, and delivered when the broker is back if it is away.
 */
export function memberActionOutbox(db: Knex, relay: { kick(): void }, logger: Logger): MemberActionSink {
  return {
    record(action: MemberAction) {
      const data: MemberActionData = {
        ...action,
        service: action.service as ErasingService,
        at: new Date().toISOString(),
      };
      writeEvent(db, {
        type: PLATFORM_EVENTS.memberAction,
        tenantId: action.tenantId,
        projectId: action.projectId,
        data,
      })
        .then(() => relay.kick())
        .catch((error) => logger.error('member action not recorded', { route: action.route, error: String(error) }));
    },
  };
}
