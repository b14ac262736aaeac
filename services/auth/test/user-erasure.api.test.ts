import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AUTH_EVENTS, InProcessBus } from '@platform/events';
import { createLogger } from '@platform/http';
import { createTestService, waitFor, type HttpStub, type TestProject, type TestService } from '@platform/testkit';
import { mailerService } from '../../mailer/src';
import { startSendgridStub } from '../../mailer/test/support/vendor-stubs';
import type { AuthShared } from '../src';
import { apiOf, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let bus: InProcessBus;
let auth: TestService<AuthShared>;
let mailer: TestService;
let sendgrid: HttpStub;
let api: Api;

beforeAll(async () => {
  bus = new InProcessBus(createLogger('user-erasure-test', 'silent'));
  sendgrid = await startSendgridStub();
  auth = await startAuth({}, { bus });
  mailer = await createTestService(mailerService, { bus, env: { SENDGRID_API_BASE: sendgrid.url } });
  api = apiOf(auth.app);
  auth.deps.relay.start();
  await mailer.parts.jobs.find((job) => job.name === 'user erasure')!.start();
});
afterAll(async () => {
  await mailer?.close();
  await auth?.close();
  await bus?.close();
  await sendgrid?.close();
});

/** The project in the Mailer's platform directory too (each test service has its own). */
async function sharedProject(): Promise<TestProject> {
  const project = await auth.createProject();
  const from = auth.deps.platformDb;
  const to = mailer.deps.platformDb;
  await to('tenants').insert(await from('tenants').where({ id: project.tenantId }));
  await to('projects').insert(await from('projects').where({ id: project.projectId }));
  await to('api_keys').insert(await from('api_keys').where({ project_id: project.projectId }));
  const provider = await request(mailer.app)
    .post('/v1/providers')
    .set(project.headers)
    .send({
      name: 'main',
      type: 'sendgrid',
      config: { apiKey: `SG.${randomBytes(8).toString('hex')}`, fromEmail: 'news@example.com' },
      isDefault: true,
    });
  expect(provider.status).toBe(201);
  return project;
}

const mailTo = (project: TestProject, to: string) =>
  request(mailer.app)
    .post('/v1/emails/send')
    .set(project.headers)
    .send({ to, subject: 'Receipt', html: '<p>Thanks</p>' });

const logsTo = (project: TestProject, email: string) =>
  mailer.deps
    .db('email_logs')
    .where({ project_id: project.projectId })
    .whereRaw('lower(to_email) = lower(?)', [email])
    .count<{ n: string }[]>('* as n')
    .then((rows) => Number(rows[0].n));

describe('DELETE /v1/users/{id} across services', () => {
  it("when the project deletes a user, then the Mailer erases the mail to their address by the event; another user's stays and the event leaves the outbox", async () => {
    const project = await sharedProject();
    const gone = await registerUser(api, project, uniqueEmail());
    const stays = await registerUser(api, project, uniqueEmail());
    expect((await mailTo(project, gone.user.email)).status).toBe(200);
    expect((await mailTo(project, stays.user.email)).status).toBe(200);
    expect(await logsTo(project, gone.user.email)).toBe(1);

    expect((await api.delete(`/users/${gone.user.id}`, { headers: project.headers })).status).toBe(204);

    await waitFor(async () => (await logsTo(project, gone.user.email)) === 0);
    expect(await logsTo(project, stays.user.email)).toBe(1);
    // The event names the erased address: it is not kept once the broker has it.
    const deletions = () => auth.deps.db('outbox').where({ type: AUTH_EVENTS.userDeleted }).select('id');
    await waitFor(async () => (await deletions()).length === 0);
  });
});
