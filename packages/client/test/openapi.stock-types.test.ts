/**
 * Types generated from the six documents with openapi-typescript's stock options (its CLI, no flags;
 * our own generator's options are not assumed) compile ordinary calls made with openapi-fetch under
 * `tsc --strict`: a field the API fills with a default may be left out, as the API allows.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVICE_DOCUMENTS } from './service-documents';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

// One client per service and calls a user would write, each leaving out what the API does not require.
const CALLS = `
import createClient from 'openapi-fetch';
import type { paths as Auth } from './auth';
import type { paths as Billing } from './billing';
import type { paths as Cms } from './cms';
import type { paths as Llm } from './llm';
import type { paths as Mailer } from './mailer';
import type { paths as Notifications } from './notifications';

const base = { baseUrl: 'http://localhost:4000/v1' };
const auth = createClient<Auth>(base);
const billing = createClient<Billing>(base);
const cms = createClient<Cms>(base);
const llm = createClient<Llm>(base);
const mailer = createClient<Mailer>(base);
const notifications = createClient<Notifications>(base);

export async function ordinaryCalls(): Promise<void> {
  await auth.POST('/register', { body: { email: 'a@example.com', password: 'long enough' } });
  await billing.POST('/pay/customers', { body: { email: 'a@example.com' } });
  await billing.GET('/pay/customers');
  await cms.POST('/content', { body: { type: 'blog', title: 'Hello', content: 'Body' } });
  await cms.GET('/content/{content_id}', { params: { path: { content_id: '00000000-0000-4000-8000-000000000000' } } });
  await llm.POST('/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
  await mailer.POST('/emails/send', { body: { to: 'a@example.com', subject: 'Hi', html: '<p>Hi</p>' } });
  await mailer.POST('/templates', { body: { name: 'welcome', subject: 'Hi', html: '<p>Hi</p>' } });
  await mailer.POST('/providers', { body: { name: 'main', type: 'sendgrid', config: { apiKey: 'SG.x' } } });
  const { data } = await notifications.POST('/notifications', { body: { title: 'Hi', message: 'Hello' } });
  const id: string | undefined = data?.id;
  void id;
  await notifications.GET('/notifications');
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom'],
    skipLibCheck: true,
    types: [],
  },
  include: ['*.ts'],
};

test('when types are generated with stock openapi-typescript options, then ordinary openapi-fetch calls compile under tsc --strict', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stock-types-'));
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(ROOT, 'node_modules/openapi-fetch'), path.join(dir, 'node_modules/openapi-fetch'));
    // One run of the CLI for the six (its start-up is most of its time): redocly.yaml lists them, no option is set.
    const apis = Object.entries(SERVICE_DOCUMENTS).map(([service, document]) => {
      writeFileSync(path.join(dir, `${service}.json`), JSON.stringify(document));
      return `  ${service}:\n    root: ./${service}.json\n    x-openapi-ts:\n      output: ./${service}.ts\n`;
    });
    writeFileSync(path.join(dir, 'redocly.yaml'), `apis:\n${apis.join('')}`);
    await run(bin('openapi-typescript'), [], { cwd: dir });
    writeFileSync(path.join(dir, 'calls.ts'), CALLS);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const compiled = await run(bin('tsc'), ['-p', dir]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
