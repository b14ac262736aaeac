import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { waitFor } from '@platform/testkit';
import { AppError, type RefusalHoldLimits } from '@platform/tenancy';
import { createHttpApp, createLogger, listenHttp } from '../src';

const HOLD_MS = 1_500;
let closedByClients = 0;

/** An app whose /refused answers the named offender's 429 (Retry-After as asked), and /ok 200. */
function appWith(limits: RefusalHoldLimits) {
  const routes = Router();
  routes.get('/refused/:offender', (req, res) => {
    res.once('close', () => {
      if (!res.writableFinished) closedByClients++;
    });
    throw new AppError('RATE_LIMITED', 'Slow down', {
      headers: { 'Retry-After': String(req.query.retryAfter ?? 30) },
      offender: req.params.offender,
    });
  });
  routes.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    refusalHolds: limits,
  });
}

const servers: Server[] = [];
async function serve(limits: RefusalHoldLimits): Promise<string> {
  const server = await listenHttp(appWith(limits), 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function timed(url: string, init?: RequestInit) {
  const started = Date.now();
  const res = await fetch(url, init);
  const body = (await res.json()) as { error?: { code: string } };
  return { res, body, ms: Date.now() - started };
}

describe('held refusals', () => {
  it('when a repeat offender is refused, then its 429 comes after the hold with the Retry-After still to wait, and another client is answered meanwhile', async () => {
    const base = await serve({ maxHoldMs: HOLD_MS, perOffender: 4, total: 100 });
    const held = timed(`${base}/v1/refused/x?retryAfter=30`);
    const other = await timed(`${base}/v1/ok`);
    const refused = await held;
    expect(other.res.status).toBe(200);
    expect(other.ms).toBeLessThan(refused.ms);
    expect(refused.res.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMITED');
    expect(refused.ms).toBeGreaterThanOrEqual(HOLD_MS - 50);
    expect(refused.ms).toBeLessThan(HOLD_MS + 3_000);
    expect(refused.res.headers.get('retry-after')).toBe('29');
  });

  it('when the Retry-After is shorter than the hold, then the 429 is held only until then and says 0', async () => {
    const base = await serve({ maxHoldMs: 10_000, perOffender: 4, total: 100 });
    const refused = await timed(`${base}/v1/refused/x?retryAfter=1`);
    expect(refused.res.status).toBe(429);
    expect(refused.ms).toBeGreaterThanOrEqual(950);
    expect(refused.ms).toBeLessThan(5_000);
    expect(refused.res.headers.get('retry-after')).toBe('0');
  });

  it('when one offender has its bound of refusals held, then its next is answered at once and its connection closed, and another offender is still held', async () => {
    const base = await serve({ maxHoldMs: HOLD_MS, perOffender: 2, total: 100 });
    const held = [timed(`${base}/v1/refused/x`), timed(`${base}/v1/refused/x`)];
    // The first two are held once the third (sent after them) is answered at once.
    await waitFor(async () => {
      const extra = await timed(`${base}/v1/refused/x`);
      return extra.ms < HOLD_MS / 2 && extra;
    }).then((extra) => {
      expect(extra.res.status).toBe(429);
      expect(extra.res.headers.get('connection')).toBe('close');
    });
    const another = await timed(`${base}/v1/refused/y`);
    expect(another.ms).toBeGreaterThanOrEqual(HOLD_MS - 50);
    for (const refused of await Promise.all(held)) expect(refused.res.status).toBe(429);
  });

  it('when the total bound is reached, then further refusals are answered at once, and a client is still answered 200', async () => {
    const base = await serve({ maxHoldMs: HOLD_MS, perOffender: 10, total: 3 });
    const held = ['a', 'b', 'c'].map((offender) => timed(`${base}/v1/refused/${offender}`));
    const extra = await waitFor(async () => {
      const answer = await timed(`${base}/v1/refused/d`);
      return answer.ms < HOLD_MS / 2 && answer;
    });
    expect(extra.res.status).toBe(429);
    expect(extra.res.headers.get('connection')).toBe('close');
    expect((await timed(`${base}/v1/ok`)).res.status).toBe(200);
    const answers = await Promise.all(held);
    expect(answers.map(({ res }) => res.status)).toEqual([429, 429, 429]);
  });

  it('when a held client goes away, then its place is free again', async () => {
    const base = await serve({ maxHoldMs: HOLD_MS, perOffender: 1, total: 100 });
    const gone = new AbortController();
    const abandoned = fetch(`${base}/v1/refused/x`, { signal: gone.signal }).catch(() => 'aborted');
    // Held: a second one of the same offender is answered at once.
    await waitFor(async () => (await timed(`${base}/v1/refused/x`)).ms < HOLD_MS / 2);
    const closedBefore = closedByClients;
    gone.abort();
    expect(await abandoned).toBe('aborted');
    await waitFor(() => closedByClients > closedBefore);
    const next = await timed(`${base}/v1/refused/x`);
    expect(next.res.status).toBe(429);
    expect(next.ms).toBeGreaterThanOrEqual(HOLD_MS - 50);
  });

  it('when holding is off, then the refusal is sent at once with its Retry-After', async () => {
    const base = await serve({ maxHoldMs: 0, perOffender: 4, total: 100 });
    const refused = await timed(`${base}/v1/refused/x?retryAfter=30`);
    expect(refused.res.status).toBe(429);
    expect(refused.ms).toBeLessThan(HOLD_MS);
    expect(refused.res.headers.get('retry-after')).toBe('30');
  });
});
