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
import { hostileCases, LONE_SURROGATES, PROTOTYPE_NAMES, queryString, type OpenApiDoc } from './harness/openapi-cases';

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
      for (const method of Object.keys(operations).filter((m) =>
        ['get', 'post', 'put', 'patch', 'delete'].includes(m),
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
});
