import { createTestService, type TestService } from '@platform/testkit';
import { mailerService } from '../src';
import { mailerClient, type ApiClient } from './support/mailer-test-service';

let svc: TestService;
let noisy: ApiClient;
let quiet: ApiClient;

// One render thread, so that the order in which answers arrive shows whose turn it was.
beforeAll(async () => {
  svc = await createTestService(mailerService, {
    env: {
      MAILER_RENDER_THREADS: '1',
      MAILER_RENDER_BUDGET_MS: '300',
      MAILER_RENDER_MAX_OUTPUT_CHARS: '5000',
      // The turn order is under test here; the per-project overrun and time-share limits have
      // tests of their own, and on a loaded machine they would refuse the fifth blow-up.
      MAILER_RENDER_MAX_OVERRUNS: '1000',
      MAILER_RENDER_PROJECT_MS_PER_SECOND: '16000',
    },
  });
  noisy = mailerClient(svc.app, (await svc.createProject()).headers);
  quiet = mailerClient(svc.app, (await svc.createProject()).headers);
});

afterAll(async () => {
  await svc.close();
});

/** Four nested loops over the same list: 60 numbers make 13 million iterations. */
const BLOW_UP =
  '{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{this}}{{/each}}{{/each}}{{/each}}{{/each}}';
const sixty = { a: Array.from({ length: 60 }, (_, i) => i) };

async function template(api: ApiClient, html: string): Promise<string> {
  const res = await api.post('/v1/templates', { body: { name: 'T', subject: 'S', html } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('template render budget', () => {
  it('when a preview loops past the time budget, then 400 names the time budget', async () => {
    const id = await template(noisy, BLOW_UP);
    const res = await noisy.post(`/v1/templates/${id}/preview`, { body: { data: sixty } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/time budget/);
    expect(res.body.error.details[0].message).toMatch(/300 ms/);
  });

  it('when an unsaved draft loops past the time budget, then 400 names the time budget', async () => {
    const id = await template(noisy, 'fine');
    const res = await noisy.post(`/v1/templates/${id}/preview`, {
      body: { data: sixty, draft: { subject: 'S', html: BLOW_UP, text: '' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/time budget/);
  });

  it('when a send renders past the time budget, then 400 and nothing is logged', async () => {
    const id = await template(noisy, BLOW_UP);
    const res = await noisy.post('/v1/emails/send', {
      body: { to: 'a@example.com', templateId: id, templateData: sixty },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/time budget/);
    expect((await noisy.get('/v1/logs')).body.logs).toHaveLength(0);
  });

  it('when a rendering is larger than the output budget, then 400 names the output budget', async () => {
    const id = await template(noisy, '{{#each a}}{{@root.s}}{{/each}}');
    const res = await noisy.post(`/v1/templates/${id}/preview`, {
      body: {
        data: { a: [1, 2, 3, 4, 5, 6], s: 'x'.repeat(1000) },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/output budget/);
    expect(res.body.error.details[0].message).toMatch(/5000 character budget/);
  });

  it('when one project keeps the render thread busy, then another project is served at its next turn', async () => {
    const heavy = await template(noisy, BLOW_UP);
    const light = await template(quiet, 'Hello {{name}}');
    const finished: string[] = [];
    const track = (who: string, reply: Promise<{ status: number }>) =>
      reply.then((res) => {
        finished.push(who);
        return res.status;
      });
    const noisyCalls = [1, 2, 3, 4, 5].map((n) =>
      track(`noisy${n}`, noisy.post(`/v1/templates/${heavy}/preview`, { body: { data: sixty } })),
    );
    // However they arrive, the quiet one waits for at most the noisy rendering already running;
    // in arrival order it would be answered last.
    const quietCall = track('quiet', quiet.post(`/v1/templates/${light}/preview`, { body: { data: { name: 'Y' } } }));
    expect(await quietCall).toBe(200);
    expect(await Promise.all(noisyCalls)).toEqual([400, 400, 400, 400, 400]);
    expect(finished.indexOf('quiet')).toBeLessThanOrEqual(1);
  });
});
