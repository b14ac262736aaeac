/**
 * Bad input never gets a 500: every operation of every service's OpenAPI document, called
 * with hostile path parameters, query values and bodies, answers a 4xx in the envelope.
 */
import request from 'supertest';
import type { ServiceDefinition } from '@platform/runtime';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';

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

  beforeAll(async () => {
    svc = await createTestService(definition);
    project = await svc.createProject();
    doc = (await request(svc.app).get('/v1/openapi.json')).body as Doc;
  });
  afterAll(() => svc.close());

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
});
