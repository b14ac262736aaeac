import request from 'supertest';
import { createTestService, describeProjectErasure } from '@platform/testkit';
import { notificationsService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';

describeProjectErasure({
  service: 'notifications',
  definition: notificationsService,
  tables: ERASURE_TABLES,
  start: (bus) => createTestService(notificationsService, { bus }),
  async seed(svc, project) {
    const created = await request(svc.app)
      .post('/v1/notifications')
      .set(project.headers)
      .send({ title: 'Hello', message: 'To everyone' });
    expect(created.status).toBe(201);
    const read = await request(svc.app)
      .patch(`/v1/notifications/${created.body.id}/read?userId=user-1`)
      .set(project.headers);
    expect(read.status).toBe(200);
  },
  seeded: ['notifications', 'notification_events', 'notification_feeds'],
});
