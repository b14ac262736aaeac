import { createTestService, describeMemberTokens } from '@platform/testkit';
import { cmsService } from '../src';

describeMemberTokens({
  service: 'cms',
  start: () => createTestService(cmsService),
  write: (marker) => ({ method: 'post', path: '/v1/content', body: { type: 'blog', title: marker, content: 'Body' } }),
  writeStatus: 201,
  writeRoute: '/v1/content',
  read: () => '/v1/content',
});
