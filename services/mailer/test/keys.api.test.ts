import { randomUUID } from 'node:crypto';
import { mailerClient, useMailerService } from './support/mailer-test-service';

const ctx = useMailerService();

const id = randomUUID();
const keyed: [method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string][] = [
  ['post', '/emails/send'],
  ['get', '/emails/logs/ann@example.com'],
  ['get', '/logs'],
  ['get', '/stats'],
  ['post', '/templates'],
  ['get', '/templates'],
  ['get', `/templates/${id}`],
  ['put', `/templates/${id}`],
  ['delete', `/templates/${id}`],
  ['post', `/templates/${id}/preview`],
  ['get', '/suppressions'],
  ['post', '/suppressions'],
  ['delete', '/suppressions/ann@example.com'],
  ['post', '/providers'],
  ['get', '/providers'],
  ['patch', `/providers/${id}`],
  ['post', `/providers/${id}/test`],
];

describe('key headers', () => {
  it.each(keyed)('when %s %s comes without keys, then 401 before anything else is looked at', async (method, path) => {
    const body = method === 'post' || method === 'put' || method === 'patch' ? {} : undefined;
    const res = await mailerClient(ctx.svc.app).call(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it("when a project's secret key is wrong, then 401", async () => {
    const { project } = await ctx.freshProject();
    const res = await mailerClient(ctx.svc.app, { ...project.headers, 'x-secret-key': 'sk_wrong' }).get('/templates');
    expect(res.status).toBe(401);
  });
});
