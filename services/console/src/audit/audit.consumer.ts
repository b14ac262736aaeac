import type { Knex } from 'knex';
import { PLATFORM_EVENTS, type EventBus, type EventEnvelope, type MemberActionData } from '@platform/events';
import { insertAuditEntry } from './audit.repository';

export const MEMBER_ACTION_QUEUE = 'console.member-actions';

/** Records a member's write in one of the six services; the event id makes a redelivery add nothing. */
export async function recordMemberAction(db: Knex, event: EventEnvelope): Promise<void> {
  const data = event.data as MemberActionData;
  await insertAuditEntry(
    db,
    {
      actorId: data.memberId,
      actorEmail: data.memberEmail,
      clientAddress: data.clientAddress,
      userAgent: data.userAgent,
      source: 'service',
    },
    {
      tenantId: data.tenantId ?? event.tenantId,
      projectId: data.projectId ?? event.projectId,
      action: `${data.service}.${data.method.toLowerCase()}`,
      target: data.route,
      outcome: data.status < 400 ? 'success' : 'failure',
      details: { service: data.service, method: data.method, route: data.route, status: data.status, role: data.role },
    },
    { at: new Date(data.at), eventId: event.id },
  );
}

export async function subscribeMemberActions(db: Knex, bus: EventBus): Promise<void> {
  await bus.subscribe({
    queue: MEMBER_ACTION_QUEUE,
    topics: [PLATFORM_EVENTS.memberAction],
    handler: (event) => recordMemberAction(db, event),
  });
}
