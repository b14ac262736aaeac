import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import type { Knex } from 'knex';
import {
  createProject,
  PlatformDirectory,
  platformMigrations,
  type CreatedProject,
  SecretBox,
} from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import { createHttpApp, createLogger, listenHttp } from '@platform/http';
import { requireKeys } from '@platform/tenancy';
import { createTestDatabase, keyHeaders } from '@platform/testkit';
import { leaveInFlight, projectInFlight } from '../src/project-in-flight';

const secrets = new SecretBox(randomBytes(32));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let x: CreatedProject;
let y: CreatedProject;
let base: string;
let close: () => Promise<void>;
/** Requests to /slow wait here until the test lets them go. */
let gate: { open: () => void; opened: Promise<void> };
let arrived = 0;
const newGate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

beforeAll(async () => {
  database = await createTestDatabase('inflight');
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, platformMigrations);
  const tenant = `t-${randomBytes(4).toString('hex')}`;
  x = await createProject(db, secrets, { tenant, project: 'x' });
  y = await createProject(db, secrets, { tenant, project: 'y' });
  const keys = [requireKeys(new PlatformDirectory(db, secrets)), projectInFlight(2)];
  const routes = Router();
  routes.get('/slow', ...keys, async (_req, res) => {
    arrived++;
    await gate.opened;
    res.json({ ok: true });
  });
  routes.get('/stream', ...keys, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
    leaveInFlight(res);
  });
  const app = createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
  const server = await listenHttp(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  await close();
  await db.destroy();
  await database.drop();
});

const get = (path: string, project: CreatedProject, signal?: AbortSignal) =>
  fetch(`${base}${path}`, { headers: keyHeaders(project), signal });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('requests in progress per project', () => {
  it("when a project has its cap of requests in progress, then its next one gets 429 before any work and another project's succeeds", async () => {
    gate = newGate();
    arrived = 0;
    const held = [get('/slow', x), get('/slow', x)];
    await until(() => arrived === 2);
    const refused = await get('/slow', x);
    expect(refused.status).toBe(429);
    // Held up to its Retry-After (a repeat offender's refusal), then sent with what is left of it.
    expect(['1', '2']).toContain(refused.headers.get('retry-after'));
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    const other = get('/slow', y);
    await until(() => arrived === 3);
    gate.open();
    expect((await other).status).toBe(200);
    for (const response of await Promise.all(held)) expect(response.status).toBe(200);
    // The slots came back with the answers.
    expect((await get('/slow', x)).status).toBe(200);
  });

  it('when a client goes away mid-request, then its slot comes back', async () => {
    gate = newGate();
    arrived = 0;
    const abort = new AbortController();
    const gone = [get('/slow', x, abort.signal), get('/slow', x, abort.signal)].map((p) => p.catch(() => 'aborted'));
    await until(() => arrived === 2);
    abort.abort();
    await Promise.all(gone);
    // The handlers are still waiting at the gate: only the closed connections can have freed the slots.
    let answer: Promise<Response>;
    let refused = 0;
    for (;;) {
      answer = get('/slow', x);
      const first = await Promise.race([answer.then((r) => r.status), until(() => arrived === 3).then(() => 0)]);
      if (first !== 429) break;
      expect(++refused).toBeLessThan(1_000);
    }
    gate.open();
    expect((await answer).status).toBe(200);
  });

  it('when a live stream has started and left the in-flight count, then it holds no slot while it stays open', async () => {
    const abort = new AbortController();
    const streams = await Promise.all([get('/stream', x, abort.signal), get('/stream', x, abort.signal)]);
    for (const stream of streams) expect(stream.status).toBe(200);
    gate = newGate();
    gate.open();
    expect((await get('/slow', x)).status).toBe(200);
    abort.abort();
  });
});
