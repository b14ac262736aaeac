/**
 * LLM gateway benchmarks:
 * 1. Added latency: POST /v1/completions through the service vs. the same local OpenAI
 *    stand-in called directly, same run, 20 connections (target: p50 added < 2 ms, p99 < 10 ms).
 * 2. A 10,000-request batch against a stand-in answering in 20 ms: done within 1.25x of
 *    10,000 x 20 ms / LLM_BATCH_CONCURRENCY, with memory before and after.
 * The stand-in runs in a child process so that it does not share the service's event loop.
 */
import { Worker } from 'node:worker_threads';
import request from 'supertest';
import { createTestService, percentile } from '@platform/testkit';
import { llmService } from '@platform/llm';
import { benchDatabaseServer } from './lib/database';
import { collectGarbage, startStandIn } from './lib/stand-in';
import { listenService } from './lib/listen';
import { compare, formatComparison, runLoad } from './lib/load';
import { projectOnStandIn, STAND_IN_KEY } from './lib/stand-in-project';

const CONCURRENCY = Number(process.env.LLM_BATCH_CONCURRENCY ?? 16);
/** Mean pause between a connection's requests in the latency probe (20 connections: ~200 req/s). */
const THINK_MS = Number(process.env.LLM_BENCH_THINK_MS ?? 100);
/** Seconds of latency probe per side: about 3,000 requests each, so that a p99 rests on some 30 of them. */
const PROBE_SECONDS = Number(process.env.LLM_BENCH_PROBE_SECONDS ?? 15);
const PROBE_WINDOW_SECONDS = 5 / 6;
const BATCH_SIZE = 10_000;
const VENDOR_DELAY_MS = 20;

const STAND_IN = `
const http = require('node:http');
const answer = (model) => JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created: 1700000000, model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let model = 'gpt-4o-mini';
    try { model = JSON.parse(Buffer.concat(chunks).toString()).model || model; } catch {}
    const delay = /-delay-(\\d+)$/.exec(model);
    const send = () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(answer(model)); };
    if (delay) setTimeout(send, Number(delay[1])); else send();
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

const PROBE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, payload, thinkMs } = workerData;
// Kept for the whole run, as a client app keeps its connections: connection set-up is not added latency.
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pause = () => sleep(Math.random() * 2 * thinkMs);
const one = (latencies) => new Promise((resolve, reject) => {
  const started = performance.now();
  const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
    res.resume();
    res.on('end', () => {
      if (res.statusCode !== 200) return reject(new Error('status ' + res.statusCode));
      latencies.push(performance.now() - started);
      resolve();
    });
  });
  req.on('error', reject);
  req.end(payload);
});
async function connection(until, latencies) {
  // A random start: 20 connections starting at one instant would be a burst of 20 simultaneous
  // requests at each window's start, which measures one burst's queue, not 20 connections.
  await pause();
  while (Date.now() < until) {
    await one(latencies);
    await pause();
  }
}
parentPort.on('message', ({ seconds }) => {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  Promise.all(Array.from({ length: 20 }, () => connection(until, latencies))).then(
    () => parentPort.postMessage(latencies),
    (error) => { throw error; },
  );
});
`;

/**
 * 20 connections, each sending its next request after a random pause (mean THINK_MS): the
 * latency a request sees when the service is busy but not saturated. The client runs in a
 * worker thread, so its own work is not counted as the service's; one worker per side serves
 * every window, so its connections and compiled code are warm. `window` returns latencies in ms.
 */
function latencyProbe(url: string, headers: Record<string, string>, body: unknown) {
  const worker = new Worker(PROBE, {
    eval: true,
    workerData: { url, headers, payload: JSON.stringify(body), thinkMs: THINK_MS },
  });
  return {
    window: (seconds: number) =>
      new Promise<number[]>((resolve, reject) => {
        const fail = (error: Error) => reject(error);
        worker.once('error', fail);
        worker.once('message', (latencies: number[]) => {
          worker.off('error', fail);
          resolve(latencies);
        });
        worker.postMessage({ seconds });
      }),
    close: () => worker.terminate(),
  };
}

function percentiles(latencies: number[]): { p50: number; p99: number; count: number } {
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), count: latencies.length };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default async function llmBench(): Promise<string[]> {
  const database = await benchDatabaseServer();
  const standIn = await startStandIn(STAND_IN);
  const svc = await createTestService(llmService, {
    env: {
      OPENAI_BASE_URL: `${standIn.url}/v1`,
      BODY_LIMIT: '10mb',
      LOG_LEVEL: 'error',
      LLM_BATCH_CONCURRENCY: String(CONCURRENCY),
      LLM_VENDOR_MAX_RETRIES: '0',
    },
  });
  svc.deps.relay.start();
  const stopBackground = await svc.startJobs();
  const service = await listenService(svc.app);
  const lines: string[] = [];
  try {
    const project = await projectOnStandIn(svc);

    // 1a. Saturated: autocannon as fast as each side answers (throughput; latency here is queueing).
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], max_tokens: 16 };
    const direct = { url: `${standIn.url}/v1/chat/completions`, headers: { authorization: `Bearer ${STAND_IN_KEY}` } };
    const gateway = { url: `${service.url}/v1/completions`, headers: project.headers };
    await runLoad({ ...gateway, method: 'POST', body, connections: 20, durationSeconds: 1 });
    const baseline = await runLoad({ ...direct, method: 'POST', body, connections: 20 });
    const subject = await runLoad({ ...gateway, method: 'POST', body, connections: 20 });
    const saturated = compare(
      'POST /v1/completions vs. the vendor stand-in directly, 20 connections, saturated',
      subject,
      baseline,
      0,
    );
    saturated.target = 'informational: throughput of one process';
    lines.push(formatComparison(saturated));

    // 1b. Added latency at 20 connections below saturation, same run, same stand-in.
    // Alternating short windows, so both sides see the same background load of the machine; a
    // first window on each side is not counted (the probe's own code and connections warming up).
    const directProbe = latencyProbe(direct.url, direct.headers, body);
    const gatewayProbe = latencyProbe(gateway.url, gateway.headers, body);
    const directRuns: number[] = [];
    const gatewayRuns: number[] = [];
    try {
      await directProbe.window(PROBE_WINDOW_SECONDS);
      await gatewayProbe.window(PROBE_WINDOW_SECONDS);
      for (let window = 0; window < Math.round(PROBE_SECONDS / PROBE_WINDOW_SECONDS); window++) {
        directRuns.push(...(await directProbe.window(PROBE_WINDOW_SECONDS)));
        gatewayRuns.push(...(await gatewayProbe.window(PROBE_WINDOW_SECONDS)));
      }
    } finally {
      await directProbe.close();
      await gatewayProbe.close();
    }
    const directLatency = percentiles(directRuns);
    const gatewayLatency = percentiles(gatewayRuns);
    const addedP50 = gatewayLatency.p50 - directLatency.p50;
    const addedP99 = gatewayLatency.p99 - directLatency.p99;
    lines.push(
      `${addedP50 < 2 && addedP99 < 10 ? 'PASS' : 'FAIL'}  gateway added latency, 20 connections, ~${Math.round(20 * (1000 / (THINK_MS + 1)))} req/s (target p50 < 2 ms, p99 < 10 ms)`,
      `      through the service: p50 ${gatewayLatency.p50.toFixed(2)} ms, p99 ${gatewayLatency.p99.toFixed(2)} ms (${gatewayLatency.count} requests)`,
      `      stand-in directly:   p50 ${directLatency.p50.toFixed(2)} ms, p99 ${directLatency.p99.toFixed(2)} ms (${directLatency.count} requests)`,
      `      added:               p50 ${addedP50.toFixed(2)} ms, p99 ${addedP99.toFixed(2)} ms`,
    );

    // 2. A 10,000-request batch against a 20 ms stand-in.
    collectGarbage();
    const before = process.memoryUsage();
    const requests = Array.from({ length: BATCH_SIZE }, (_, i) => ({
      custom_id: `r${i}`,
      model: `gpt-4o-mini-delay-${VENDOR_DELAY_MS}`,
      messages: [{ role: 'user', content: `item ${i}` }],
    }));
    const submitStarted = performance.now();
    const submitted = await request(svc.app).post('/v1/batch').set(project.headers).send({ requests }).expect(201);
    const submitMs = performance.now() - submitStarted;
    const processingStarted = performance.now();
    let peakRss = 0;
    for (;;) {
      const { body: batch } = await request(svc.app).get(`/v1/batch/${submitted.body.batchId}`).set(project.headers);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      if (['completed', 'failed', 'cancelled'].includes(batch.status)) {
        if (batch.completedCount !== BATCH_SIZE)
          throw new Error(`batch ended ${batch.status} with ${batch.completedCount} completed`);
        break;
      }
      await sleep(50);
    }
    const processingMs = performance.now() - processingStarted;
    collectGarbage();
    const after = process.memoryUsage();
    const idealMs = (BATCH_SIZE * VENDOR_DELAY_MS) / CONCURRENCY;
    const pass = processingMs <= idealMs * 1.25;
    lines.push(
      `${pass ? 'PASS' : 'FAIL'}  10,000-request batch, vendor 20 ms, concurrency ${CONCURRENCY}`,
      `      processing: ${(processingMs / 1000).toFixed(2)} s (ideal ${(idealMs / 1000).toFixed(2)} s, target <= ${((idealMs * 1.25) / 1000).toFixed(2)} s, ${(processingMs / idealMs).toFixed(2)}x); submit ${submitMs.toFixed(0)} ms`,
      `      memory:     heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}, rss ${mb(before.rss)} -> ${mb(after.rss)} (peak ${mb(peakRss)})`,
    );
  } finally {
    await service.close();
    await stopBackground();
    await svc.close();
    standIn.child.kill();
    await database.stop();
  }
  return lines;
}
