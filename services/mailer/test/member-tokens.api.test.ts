import { createTestService, describeMemberTokens } from '@platform/testkit';
import { mailerService } from '../src';

describeMemberTokens({
  service: 'mailer',
  start: () => createTestService(mailerService),
  write: (marker) => ({
    method: 'post',
    path: '/v1/templates',
    body: { name: marker, subject: 'Hi', html: '<p>Hi</p>' },
  }),
  writeStatus: 201,
  writeRoute: '/v1/templates',
  read: () => '/v1/templates',
});
