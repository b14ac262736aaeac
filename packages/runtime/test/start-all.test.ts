import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@platform/testkit';

const ROOT = path.resolve(__dirname, '../../..');
const OFFSET = 700;
const PORTS = [4001, 4002, 4003, 4004, 4005, 4006, 4000].map((p) => p + OFFSET);

describe('pnpm start on the embedded defaults', () => {
  it('when started with no configuration, then the six services and the console answer, the printed demo keys are accepted and a builder can sign up to the console', async () => {
    // Under the repository's .data: when run as root, Postgres runs as another OS user that must reach it.
    const dataDir = path.join(ROOT, '.data', `start-test-${randomBytes(4).toString('hex')}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: '54359',
      START_PORT_OFFSET: String(OFFSET),
      LOG_LEVEL: 'warn',
    };
    for (const name of [
      'DATABASE_URL',
      'PLATFORM_DATABASE_URL',
      'AMQP_URL',
      'REDIS_URL',
      'MASTER_KEY',
      'JWT_PRIVATE_KEY',
      'JWT_PUBLIC_KEY',
    ])
      delete env[name];
    const child = spawn('pnpm', ['--silent', 'start'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor(() => output.includes('Demo project keys') && /x-project-id:\s+\S+/.test(output), {
        timeoutMs: 60_000,
      });
      const key = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)![1];
      const headers = {
        'x-api-key': key('x-api-key'),
        'x-secret-key': key('x-secret-key'),
        'x-tenant-id': key('x-tenant-id'),
        'x-project-id': key('x-project-id'),
      };
      for (const port of PORTS) {
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
        expect(await ready.json()).toEqual({ status: 'ok', database: 'up', broker: 'none' });
        const doc = (await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json()) as { openapi: string };
        expect(doc.openapi).toBe('3.1.0');
      }
      // The demo keys pass the key middleware: a keyed route answers 404 for an unknown id, not 401.
      const keyed = await fetch(
        `http://127.0.0.1:${4006 + OFFSET}/v1/notifications/00000000-0000-4000-8000-000000000000`,
        { headers },
      );
      expect(keyed.status).not.toBe(401);
      const refused = await fetch(
        `http://127.0.0.1:${4006 + OFFSET}/v1/notifications/00000000-0000-4000-8000-000000000000`,
        {
          headers: { ...headers, 'x-secret-key': 'sk_wrong' },
        },
      );
      expect(refused.status).toBe(401);

      // The console prints its address and signs builders up and in through Authentication.
      expect(output).toContain(
        `Console: http://localhost:${4000 + OFFSET}   (control plane API: http://localhost:${4000 + OFFSET}/v1`,
      );
      expect(output).toContain(`MCP server for coding agents: http://localhost:${4000 + OFFSET}/v1/mcp`);
      const consoleUrl = `http://127.0.0.1:${4000 + OFFSET}/v1`;
      const post = (path: string, body: object) =>
        fetch(`${consoleUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const credentials = { email: 'builder@example.com', password: 'correct horse battery staple' };
      expect((await post('/account/sign-up', credentials)).status).toBe(201);
      const signedIn = await post('/account/sign-in', credentials);
      expect(signedIn.status).toBe(200);
      const { accessToken } = (await signedIn.json()) as { accessToken: string };
      const me = await fetch(`${consoleUrl}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(await me.json()).toMatchObject({ email: 'builder@example.com', organisations: [] });
    } finally {
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
