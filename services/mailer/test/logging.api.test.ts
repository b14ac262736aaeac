import {
  createTestService,
  sendJson,
  startHttpStub,
  startWithLogLines,
  type HttpStub,
  type TestService,
} from '@platform/testkit';
import { mailerService } from '../src';
import { mailerClient } from './support/mailer-test-service';

// No log line may carry a vendor key or a link with a token, even when the vendor quotes them back.
const apiKey = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
const link = 'https://app.example.com/reset-password?token=Q2hhbmdlTWVQbGVhc2U';
let vendor: HttpStub;
let svc: TestService;
let lines: string[];

beforeAll(async () => {
  // A Mailgun that refuses the key, quoting it and the start of the message in its answer.
  vendor = await startHttpStub((_req, res) =>
    sendJson(res, 401, { message: `Invalid private key ${apiKey} for a message beginning "Reset: ${link}"` }),
  );
  ({ started: svc, lines } = await startWithLogLines(
    () => createTestService(mailerService, { env: { MAILGUN_API_BASE: vendor.url } }),
    (started) => started,
  ));
});
afterAll(async () => {
  await svc.close();
  await vendor.close();
});

describe('logs', () => {
  it('when the vendor refuses a send and quotes the key and the link back, then no log line contains either', async () => {
    const project = await svc.createProject();
    const api = mailerClient(svc.app, project.headers);
    const provider = await api.post('/v1/providers', {
      body: {
        name: 'Mailgun',
        type: 'mailgun',
        config: { apiKey, domain: 'mg.example.com', fromEmail: 'app@mg.example.com' },
      },
    });
    expect(provider.status).toBe(201);
    const res = await api.post('/v1/emails/send', {
      body: {
        to: 'ann@example.com',
        subject: 'Reset',
        html: `<a href="${link}">Reset</a>`,
        text: `Reset: ${link}`,
      },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(vendor.requests.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes('email send failed'))).toBe(true);
    for (const secret of [apiKey, link, 'Q2hhbmdlTWVQbGVhc2U'])
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
  });
});
