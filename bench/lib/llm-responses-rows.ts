/**
 * The llm-gateway bench's rows for /v1/responses and /v1/embeddings, each beside a bare Node proxy
 * to the same stand-in (the machine's own cost) and the stand-in directly, taking turns:
 * 4. Time to first byte added on /v1/responses streams at ~200 streams/s over 20 connections
 *    (p50, p99; the gateway sends nothing before the vendor's first event, so its first byte is
 *    response.created with the first text delta).
 * 5. Saturated /v1/embeddings throughput, 20 connections, against the bare proxy's.
 * A stand-in of its own (OpenAI's Responses events and embeddings, told apart by model) and a
 * service of its own on the bench's databases, so that the chat rows are untouched.
 */
import { Worker } from 'node:worker_threads';
import { createTestService, percentile } from '@platform/testkit';
import { llmService } from '@platform/llm';
import { startStandIn } from './stand-in';
import { listenBareProxy } from './bare-proxy';
import { listenService } from './listen';
import { alternate } from './load';
import { projectOnStandIn, STAND_IN_KEY } from './stand-in-project';

const STAND_IN = `
const http = require('node:http');
const event = (type, data) => 'event: ' + type + '\\ndata: ' + JSON.stringify({ type, ...data }) + '\\n\\n';
const response = (model, status, usage) => ({ id: 'resp_b', object: 'response', created_at: 1700000000, status, model,
  output: [], usage });
const usage = { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3,
  output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 8 };
const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString() || '{}');
    const model = body.model || 'gpt-4o-mini';
    if (model.startsWith('text-embedding')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', model, usage: { prompt_tokens: 2, total_tokens: 2 },
        data: [{ object: 'embedding', index: 0, embedding: [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8] }] }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const item = { type: 'message', id: 'msg_b', status: 'in_progress', role: 'assistant', content: [] };
    const at = { item_id: 'msg_b', output_index: 0, content_index: 0 };
    let n = 0;
    res.write(event('response.created', { sequence_number: n++, response: response(model, 'in_progress', null) }) +
      event('response.in_progress', { sequence_number: n++, response: response(model, 'in_progress', null) }) +
      event('response.output_item.added', { sequence_number: n++, output_index: 0, item }) +
      event('response.output_text.delta', { sequence_number: n++, ...at, delta: 'a', logprobs: [] }));
    for (let i = 0; i < 3; i++) res.write(event('response.output_text.delta', { sequence_number: n++, ...at, delta: ' b', logprobs: [] }));
    res.end(event('response.output_text.done', { sequence_number: n++, ...at, text: 'a b b b', logprobs: [] }) +
      event('response.output_item.done', { sequence_number: n++, output_index: 0, item: { ...item, status: 'completed' } }) +
      event('response.completed', { sequence_number: n++, response: response(model, 'completed', usage) }));
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

// 20 connections, random pauses (mean 100 ms): ~200 streams/s; time to the first byte of each.
const TTFT_CLIENT = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, payload, seconds } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let errors = 0;
const stream = (onFirst) => new Promise((resolve) => {
  const started = performance.now();
  const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
    if (res.statusCode !== 200) { errors++; res.resume(); return resolve(); }
    res.once('data', () => onFirst(performance.now() - started));
    res.on('data', () => {});
    res.on('end', resolve);
  });
  req.on('error', () => { errors++; resolve(); });
  req.end(payload);
});
(async () => {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 20 }, async () => {
    await sleep(Math.random() * 200);
    while (Date.now() < until) { await stream((ms) => latencies.push(ms)); await sleep(Math.random() * 200); }
  }));
  parentPort.postMessage({ latencies, errors });
})();
`;

interface Target {
  url: string;
  headers: Record<string, string>;
}

function ttftRound(target: Target, payload: string, seconds: number): Promise<{ latencies: number[]; errors: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(TTFT_CLIENT, { eval: true, workerData: { ...target, payload, seconds } });
    worker.once('message', (m: { latencies: number[]; errors: number }) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

/** Rows 4 and 5 of `pnpm bench llm-gateway`, as report lines. */
export async function responsesAndEmbeddingsRows(seconds: number, rounds = 5): Promise<string[]> {
  const standIn = await startStandIn(STAND_IN);
  const svc = await createTestService(llmService, {
    env: { OPENAI_BASE_URL: `${standIn.url}/v1`, LOG_LEVEL: 'error', LLM_VENDOR_MAX_RETRIES: '0' },
  });
  const stopJobs = await svc.startJobs();
  const service = await listenService(svc.app);
  const bareProxy = await listenBareProxy(standIn.url, { authorization: `Bearer ${STAND_IN_KEY}` });
  const lines: string[] = [];
  try {
    const project = await projectOnStandIn(svc);
    const streamBody = JSON.stringify({ model: 'gpt-4o-mini', input: 'hello', stream: true });
    const targets: Target[] = [
      { url: `${standIn.url}/v1/responses`, headers: { authorization: `Bearer ${STAND_IN_KEY}` } },
      { url: `${bareProxy.url}/v1/responses`, headers: {} },
      { url: `${service.url}/v1/responses`, headers: project.headers },
    ];
    const results = targets.map(() => ({ latencies: [] as number[], errors: 0 }));
    await ttftRound(targets[2], streamBody, 1); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [i, target] of targets.entries()) {
        const got = await ttftRound(target, streamBody, seconds / rounds);
        results[i].latencies.push(...got.latencies);
        results[i].errors += got.errors;
      }
    }
    const [direct, bare, gateway] = results;
    const added = (via: number[], q: number) => percentile(via, q) - percentile(direct.latencies, q);
    const addedBy = (via: { latencies: number[]; errors: number }) =>
      `p50 +${added(via.latencies, 0.5).toFixed(2)} ms, p99 +${added(via.latencies, 0.99).toFixed(2)} ms (${via.latencies.length} streams, ${via.errors} errors)`;
    lines.push(
      `${added(gateway.latencies, 0.99) < 5 && gateway.errors === 0 ? 'PASS' : 'FAIL'}  /v1/responses streams: time to first byte added, 20 connections, ~${Math.round(gateway.latencies.length / seconds)} streams/s (target p99 < 5 ms)`,
      `      the gateway:       ${addedBy(gateway)}`,
      `      a bare Node proxy: ${addedBy(bare)}`,
      `      stand-in directly: p50 ${percentile(direct.latencies, 0.5).toFixed(2)} ms, p99 ${percentile(direct.latencies, 0.99).toFixed(2)} ms`,
    );

    const body = { model: 'text-embedding-3-small', input: 'hello' };
    const durationSeconds = Math.max(1, Math.round(seconds / 6));
    const { subject, baseline, pairedRatio } = await alternate(
      {
        url: `${service.url}/v1/embeddings`,
        headers: project.headers,
        method: 'POST',
        body,
        connections: 20,
        durationSeconds,
      },
      { url: `${bareProxy.url}/v1/embeddings`, headers: {}, method: 'POST', body, connections: 20, durationSeconds },
      3,
    );
    const failed = (r: typeof subject) => r.non2xx + r.errors;
    lines.push(
      `${pairedRatio >= 0.5 && failed(subject) === 0 ? 'PASS' : 'FAIL'}  /v1/embeddings saturated, 20 connections (target >= 0.5 of the bare proxy, zero errors)`,
      `      the gateway:       ${subject.requestsPerSecond.toFixed(0)} req/s, p50 ${subject.p50Ms} ms, p99 ${subject.p99Ms} ms, ${failed(subject)} errors`,
      `      a bare Node proxy: ${baseline.requestsPerSecond.toFixed(0)} req/s, p50 ${baseline.p50Ms} ms, p99 ${baseline.p99Ms} ms, ${failed(baseline)} errors`,
      `      ratio:             ${(pairedRatio * 100).toFixed(1)}% (median of paired rounds)`,
    );
  } finally {
    await bareProxy.close();
    await service.close();
    await stopJobs();
    await svc.close();
    standIn.child.kill();
  }
  return lines;
}
