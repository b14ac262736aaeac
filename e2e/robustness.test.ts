/**
 * Bad input never gets a 500: every operation of every service's OpenAPI document, called
 * with hostile path parameters, query values and bodies, answers a 4xx in the envelope.
 */
import request from 'supertest';
import type { ServiceDefinition } from '@platform/runtime';
import {
  createTestService,
  sendJson,
  startHttpStub,
  type HttpStub,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';
import { MAX_JSON_DEPTH } from '@platform/tenancy';
import {
  deepCases,
  hostileCases,
  LONE_SURROGATES,
  PROTOTYPE_NAMES,
  queryString,
  urlCases,
  type OpenApiDoc,
  type SweepCase,
} from './harness/openapi-cases';

const HOSTILE_SEGMENTS = [
  '00000000-0000-4000-8000-000000000000',
  'not-a-uuid',
  "'; drop table users; --",
  '%00',
  'x'.repeat(600),
];
const HOSTILE_BODIES: unknown[] = [
  [],
  'just a string',
  42,
  null,
  { email: { $ne: null }, password: ['a'], title: { nested: true }, limit: -1, amount: 'NaN', metadata: 'x' },
  { __proto__: { admin: true }, constructor: { prototype: { polluted: true } } },
  {
    email: 'nul\u0000@example.com',
    password: 'pass\u0000word1',
    title: 'a\u0000b',
    message: '\u0000',
    name: 'n\u0000',
    subject: 's\u0000',
    html: '<p>\u0000</p>',
    to: 'x\u0000@example.com',
    content: '\u0000',
    userId: 'u\u0000',
    metadata: { 'k\u0000': 'v\u0000' },
    data: { k: '\u0000' },
  },
  {
    email: 'a@b.c',
    password: 'p'.repeat(2000),
    requests: [{}],
    line_items: [{ price: 1, quantity: 0 }],
    schema: { type: 'nope' },
  },
];
const HOSTILE_QUERIES = [
  'limit=abc',
  'limit=101&offset=-5',
  'environment=prod',
  'email=',
  'userId[]=a&userId[]=b',
  'read=maybe',
];

type Doc = { paths: Record<string, Record<string, unknown>> };

/** A Server-Sent Events stream stays open when it is accepted: its bad input is tested in its service's tests. */
const isEventStream = (operation: unknown) =>
  JSON.stringify((operation as { responses?: unknown }).responses ?? {}).includes('text/event-stream');

const services: ServiceDefinition[] = [
  authService,
  billingService,
  cmsService,
  llmService,
  mailerService,
  notificationsService,
];

describe.each(services.map((s) => [s.name, s] as const))('%s: hostile input', (_name, definition) => {
  let svc: TestService;
  let project: TestProject;
  let doc: Doc;
  let vendor: HttpStub;

  beforeAll(async () => {
    // Every vendor refuses every key: bodies that pass validation reach no real vendor and wait for none.
    vendor = await startHttpStub((_req, res) =>
      sendJson(res, 401, { error: { type: 'authentication_error', message: 'invalid key' } }),
    );
    const vendors = [
      'OPENAI_BASE_URL',
      'ANTHROPIC_BASE_URL',
      'STRIPE_API_BASE',
      'SENDGRID_API_BASE',
      'MAILGUN_API_BASE',
    ];
    svc = await createTestService(definition, { env: Object.fromEntries(vendors.map((name) => [name, vendor.url])) });
    project = await svc.createProject();
    doc = (await request(svc.app).get('/v1/openapi.json')).body as Doc;
  });
  afterAll(async () => {
    await svc.close();
    await vendor.close();
  });

  const headers = () => ({
    ...project.headers,
    authorization: `Bearer ${project.accessToken({ userId: '00000000-0000-4000-8000-000000000001', email: 'a@b.c' })}`,
  });

  it('when every operation gets hostile path parameters, queries and bodies, then no answer is a 500', async () => {
    const failures: string[] = [];
    const headers = {
      ...project.headers,
      authorization: `Bearer ${project.accessToken({ userId: '00000000-0000-4000-8000-000000000001', email: 'a@b.c' })}`,
    };
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations).filter(
        (m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m) && !isEventStream(operations[m]),
      )) {
        for (const segment of HOSTILE_SEGMENTS) {
          const path = `/v1${template.replace(/\{[^}]+\}/g, encodeURIComponent(segment))}`;
          for (const [i, body] of HOSTILE_BODIES.entries()) {
            const query = HOSTILE_QUERIES[i % HOSTILE_QUERIES.length];
            const call = request(svc.app)[method as 'get'](`${path}?${query}`).set(headers);
            const res =
              method === 'get'
                ? await call
                : await call
                    .set('content-type', 'application/json')
                    .send(typeof body === 'string' && i === 1 ? '{"broken": ' : JSON.stringify(body));
            if (res.status >= 500 || (res.body?.success !== false && res.status >= 400)) {
              failures.push(
                `${method.toUpperCase()} ${path.slice(0, 80)}?${query} body#${i} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it.each([
    ['prototype names (__proto__, constructor, toString, ...)', PROTOTYPE_NAMES],
    ['lone UTF-16 surrogates', LONE_SURROGATES],
  ])(
    'when any string, free-form key, path or query parameter of any operation is one of the %s, then no answer is a 5xx, every 4xx is the envelope, and a value outside a closed list is refused',
    async (_class, hostile) => {
      const failures: string[] = [];
      for (const sweep of hostileCases(doc as OpenApiDoc, hostile)) {
        const call = request(svc.app)
          [sweep.method as 'get'](`${sweep.path}${queryString(sweep.query)}`)
          .set(headers());
        const res =
          sweep.body === undefined ? await call : await call.set('content-type', 'application/json').send(sweep.body);
        const accepted = res.status < 400 && sweep.mustRefuse;
        if (accepted || res.status >= 500 || (res.status >= 400 && res.body?.success !== false))
          failures.push(`${sweep.label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    },
    240_000,
  );

  /** Each case sent as its document describes it; what it answers when that is not a 4xx in the envelope, or accepted junk. */
  const failuresOf = async (cases: SweepCase[]) => {
    const failures: string[] = [];
    for (const sweep of cases) {
      const call = request(svc.app)
        [sweep.method as 'get'](`${sweep.path}${queryString(sweep.query)}`)
        .set(headers());
      const res =
        sweep.body === undefined ? await call : await call.set('content-type', 'application/json').send(sweep.body);
      const accepted = res.status < 400 && sweep.mustRefuse;
      if (accepted || res.status >= 500 || (res.status >= 400 && res.body?.success !== false))
        failures.push(`${sweep.label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    return failures;
  };

  it('when any free-form object of any body (metadata, data, a schema, tool parameters) nests past MAX_JSON_DEPTH, up to thousands of levels, then it is refused with a 4xx, never stored or a 5xx', async () => {
    const cases = [MAX_JSON_DEPTH, 5_000].flatMap((depth) => deepCases(doc as OpenApiDoc, depth));
    expect(await failuresOf(cases)).toEqual([]);
  }, 120_000);

  it('when any URL of any body is one the WHATWG parser cannot read, then it is refused with a 4xx at once, not a 5xx later', async () => {
    const cases = ['https://xn--/', 'https://xn--a.com/'].flatMap((url) => urlCases(doc as OpenApiDoc, url));
    expect(await failuresOf(cases)).toEqual([]);
  });
});

/** Four nested loops over 60 numbers: 13 million iterations, seconds of work without a budget. */
const TEMPLATE_BLOW_UP =
  '{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{#each @root.a}}{{this}}{{/each}}{{/each}}{{/each}}{{/each}}';
const RECURSIVE_ANY_OF = {
  definitions: { n: { anyOf: [0, 1].map(() => ({ type: 'array', items: { $ref: '#/definitions/n' } })) } },
  $ref: '#/definitions/n',
};
const nestedArray = (depth: number) =>
  JSON.stringify(Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'x'));

describe('abusive tenant-defined work and bogus keys', () => {
  let mailer: TestService;
  let cms: TestService;

  // Budgets well above a quiet request's cost on a loaded 2-core machine, far below the abuse's.
  beforeAll(async () => {
    mailer = await createTestService(mailerService, { env: { MAILER_RENDER_BUDGET_MS: '2000' } });
    cms = await createTestService(cmsService, {
      env: { CMS_VALIDATION_BUDGET_MS: '2000', PROJECT_MAX_IN_FLIGHT: '8' },
    });
  });
  afterAll(async () => {
    await mailer.close();
    await cms.close();
  });

  const post = (svc: TestService, headers: Record<string, string>, path: string, body: object) =>
    request(svc.app).post(path).set(headers).send(body);

  it("when a template's rendering blows up, then 400 names the budget and another project's preview at the same time succeeds", async () => {
    const [noisy, quiet] = [await mailer.createProject(), await mailer.createProject()];
    const heavy = await post(mailer, noisy.headers, '/v1/templates', {
      name: 'x',
      subject: 's',
      html: TEMPLATE_BLOW_UP,
    });
    const light = await post(mailer, quiet.headers, '/v1/templates', { name: 'y', subject: 's', html: 'Hi {{n}}' });
    const a = Array.from({ length: 60 }, (_, i) => i);
    const [abusive, other] = await Promise.all([
      post(mailer, noisy.headers, `/v1/templates/${heavy.body.id}/preview`, { data: { a } }),
      post(mailer, quiet.headers, `/v1/templates/${light.body.id}/preview`, { data: { n: 1 } }),
    ]);
    expect(abusive.status).toBe(400);
    expect(abusive.body.error.message).toMatch(/budget/);
    expect(other.status).toBe(200);
  });

  it("when a project keeps previewing blow-ups, then past its allowance of overruns it gets 429 within the refusal hold and another project's preview succeeds", async () => {
    const [noisy, quiet] = [await mailer.createProject(), await mailer.createProject()];
    const heavy = await post(mailer, noisy.headers, '/v1/templates', {
      name: 'x',
      subject: 's',
      html: TEMPLATE_BLOW_UP,
    });
    const light = await post(mailer, quiet.headers, '/v1/templates', { name: 'y', subject: 's', html: 'Hi {{n}}' });
    const blowUp = () =>
      post(mailer, noisy.headers, `/v1/templates/${heavy.body.id}/preview`, {
        data: { a: Array.from({ length: 60 }, (_, i) => i) },
      });
    // MAILER_RENDER_MAX_OVERRUNS (3 a minute) renderings over budget, each one stopped at its budget.
    for (let i = 0; i < 3; i++) expect((await blowUp()).status).toBe(400);
    const started = Date.now();
    const [refused, other] = await Promise.all([
      blowUp(),
      post(mailer, quiet.headers, `/v1/templates/${light.body.id}/preview`, { data: { n: 1 } }),
    ]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Held (REFUSAL_HOLD_MS, 1 s by default) rather than run: no budget spent, no thread restarted.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(other.status).toBe(200);
  }, 60_000);

  it("when a project fires more requests at once than its in-flight cap, then the rest get 429, none a 5xx, and another project's read succeeds", async () => {
    const [noisy, quiet] = [await cms.createProject(), await cms.createProject()];
    const [burst, other] = await Promise.all([
      Promise.all(Array.from({ length: 60 }, () => request(cms.app).get('/v1/content').set(noisy.headers))),
      request(cms.app).get('/v1/content').set(quiet.headers),
    ]);
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    expect(other.status).toBe(200);
  });

  it("when a schema's errors blow up, then 400 with a capped list and another project's item at the same time is created", async () => {
    const [noisy, quiet] = [await cms.createProject(), await cms.createProject()];
    expect((await post(cms, noisy.headers, '/v1/content-types', { name: 'n', schema: RECURSIVE_ANY_OF })).status).toBe(
      201,
    );
    expect(
      (await post(cms, quiet.headers, '/v1/content-types', { name: 'q', schema: { type: 'object' } })).status,
    ).toBe(201);
    const item = (type: string, content: string) => ({ type: 'custom', contentType: type, title: 't', content });
    const [capped, overBudget, other] = await Promise.all([
      post(cms, noisy.headers, '/v1/content', item('n', nestedArray(12))),
      post(cms, noisy.headers, '/v1/content', item('n', nestedArray(24))),
      post(cms, quiet.headers, '/v1/content', item('q', '{}')),
    ]);
    expect(capped.status).toBe(400);
    expect(capped.body.error.details.length).toBeLessThanOrEqual(50);
    expect(overBudget.status).toBe(400);
    expect(overBudget.body.error.message).toMatch(/budget/);
    expect(other.status).toBe(201);
  });

  it("when a tenant's schema requires a name Object.prototype has, then a document without it as its own property is refused", async () => {
    const project = await cms.createProject();
    const accepted: string[] = [];
    for (const name of [...PROTOTYPE_NAMES, 'valueOf']) {
      const type = `proto-${name.replace(/_/g, '')}`;
      const schema = { type: 'object', required: [name], dependentRequired: { a: [name] } };
      expect((await post(cms, project.headers, '/v1/content-types', { name: type, schema })).status).toBe(201);
      for (const content of ['{}', '{"a": 1}']) {
        const res = await post(cms, project.headers, '/v1/content', {
          type: 'custom',
          contentType: type,
          title: 't',
          content,
        });
        if (res.status !== 400) accepted.push(`${name} ${content} -> ${res.status}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('when random keys flood a service, then each gets 401 or 429, never a 5xx, and a valid key keeps working', async () => {
    const valid = await cms.createProject();
    const random = () => ({ ...valid.headers, 'x-api-key': `pk_${Math.random().toString(36).slice(2)}` });
    const flood = await Promise.all(
      Array.from({ length: 200 }, () => request(cms.app).get('/v1/content').set(random())),
    );
    expect(flood.filter((res) => res.status !== 401 && res.status !== 429)).toEqual([]);
    expect((await request(cms.app).get('/v1/content').set(valid.headers)).status).toBe(200);
  });
});
