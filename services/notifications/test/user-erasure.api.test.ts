import request from 'supertest';
import { createTestService, describeUserErasure } from '@platform/testkit';
import { notificationsService } from '../src';

describeUserErasure({
  service: 'notifications',
  start: (bus) => createTestService(notificationsService, { bus }),
  // A notification for the user, and their read receipt of a broadcast.
  async seed(svc, project, user) {
    const own = await request(svc.app)
      .post('/v1/notifications')
      .set(project.headers)
      .send({ userId: user.userId, title: 'Hello', message: 'Just you' });
    expect(own.status).toBe(201);
    const broadcast = await request(svc.app)
      .post('/v1/notifications')
      .set(project.headers)
      .send({ title: 'Hello', message: 'To everyone' });
    expect(broadcast.status).toBe(201);
    const read = await request(svc.app)
      .patch(`/v1/notifications/${broadcast.body.id}/read?userId=${user.userId}`)
      .set(project.headers);
    expect(read.status).toBe(200);
  },
  personalColumns: {
    'notifications.user_id': 'deleted',
    'notification_events.user_id': 'deleted',
    'notification_receipts.user_id': 'deleted',
  },
  async held(svc, project, user) {
    const { rows } = await svc.deps.db.raw<{ rows: { n: string }[] }>(
      `select (select count(*) from notifications where tenant_id = :t and project_id = :p and user_id = :u)
            + (select count(*) from notification_events where tenant_id = :t and project_id = :p and user_id = :u)
            + (select count(*) from notification_receipts r join notifications n on n.id = r.notification_id
                where n.tenant_id = :t and n.project_id = :p and r.user_id = :u) as n`,
      { t: project.tenantId, p: project.projectId, u: user.userId },
    );
    return Number(rows[0].n);
  },
});
