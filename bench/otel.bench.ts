/**
 * What tracing costs (issue #38): a keyed read (GET /v1/providers) and the gateway's
 * non-streaming chat completion, against LLM service processes that differ only in their
 * OTEL_* settings: off (no endpoint), on at 100% (parentbased_always_on) and on at 10%
 * (parentbased_traceidratio 0.1), both exporting over OTLP/HTTP to a local receiver. A second
 * process with tracing off gives the noise floor; OTEL_BENCH_BASELINE_ROOT (another checkout with
 * its node_modules, e.g. one without telemetry) adds its LLM service as the build "off" is held
 * against. All are measured in the same rounds, in rotating order, each against that round's "off";
 * the service's CPU per request is reported beside the throughput, and the no-op calls tracing off
 * leaves in the code are timed. OTEL_BENCH_CPU_PROF=<dir> has each process write a CPU profile.
 * Targets: off within 2% (noise); on at 10% costs under 5%; on at 100% under 15%.
 * OTEL_BENCH_SECONDS sets each round's length, BENCH_ROUNDS the rounds.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { createProject, platformMigrations, SecretBox } from '@platform/directory';
import { createDb, dropDatabase, ensureDatabase, migrateLatest, withDatabase } from '@platform/db';
import { keyHeaders } from '@platform/testkit';
import { startServiceProcess, type ServiceProcess } from '../e2e/harness/processes';
import { benchDatabaseServer } from './lib/database';
import { startStandIn } from './lib/stand-in';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load';
import { interleave } from './lib/interleave';
import { offResidue } from './lib/telemetry-off-residue';

const SECONDS = Number(process.env.OTEL_BENCH_SECONDS ?? 10);
const BASELINE_ROOT = process.env.OTEL_BENCH_BASELINE_ROOT;
const CPU_PROF_DIR = process.env.OTEL_BENCH_CPU_PROF;

const perRequest = (result: LoadResult) =>
  `${((result.serverCpuMsPerRequest ?? NaN) * 1000).toFixed(0)} us CPU/request`;

// A non-streaming OpenAI chat completion, answered at once.
const STAND_IN = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'chatcmpl-b', object: 'chat.completion', created: 1700000000, model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }));
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** An OTLP/HTTP endpoint that takes every export and drops it (a collector's cost is not ours). */
async function startSink(): Promise<{ url: string; received: () => number; close(): void }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => server.close(),
  };
}

export default async function run(): Promise<string[]> {
  const server = await benchDatabaseServer();
  const suffix = randomBytes(4).toString('hex');
  const names = { platform: `bench_otel_platform_${suffix}`, llm: `bench_otel_llm_${suffix}` };
  await ensureDatabase(server.url, names.platform);
  await ensureDatabase(server.url, names.llm);
  const platformDb = createDb({ url: withDatabase(server.url, names.platform), poolMax: 2 });
  await migrateLatest(platformDb, platformMigrations);
  const masterKey = randomBytes(32);
  const project = await createProject(platformDb, new SecretBox(masterKey), {
    tenant: `bench-${suffix}`,
    project: 'otel',
  });
  await platformDb.destroy();

  const standIn = await startStandIn(STAND_IN);
  const sink = await startSink();
  const jwt = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const common = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PROJECT_RATE_LIMIT: '1000000000',
    PLATFORM_DATABASE_URL: withDatabase(server.url, names.platform),
    DATABASE_URL: withDatabase(server.url, names.llm),
    MASTER_KEY: masterKey.toString('base64'),
    JWT_PUBLIC_KEY: jwt.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    OPENAI_BASE_URL: `${standIn.url}/v1`,
    LLM_ROLE: 'api',
  };
  const traced = (sampler: string, arg?: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: sampler,
    ...(arg ? { OTEL_TRACES_SAMPLER_ARG: arg } : {}),
  });
  const processes: ServiceProcess[] = [];
  const lines: string[] = [];
  try {
    // One after another: they share the database and its migration lock.
    const start = async (label: string, env: Record<string, string>, root?: string) => {
      // OTEL_BENCH_CPU_PROF=<dir>: each process writes its CPU profile there (<dir>/<label>) as it stops.
      const nodeArgs = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROF_DIR, label)}`] : [];
      const started = await startServiceProcess('llm', { ...common, ...env }, { root, nodeArgs });
      processes.push(started);
      return started;
    };
    const off = await start('off', {});
    const offAgain = await start('off-again', {});
    const all = await start('sampled-100', traced('parentbased_always_on'));
    const tenth = await start('sampled-10', traced('parentbased_traceidratio', '0.1'));
    const untraced = BASELINE_ROOT ? await start('baseline', {}, BASELINE_ROOT) : undefined;
    const headers = { ...keyHeaders(project), 'content-type': 'application/json' };
    const configured = await fetch(`${off.url}/v1/providers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ providerType: 'openai', apiKey: 'sk-bench-0123456789' }),
    });
    if (!configured.ok) throw new Error(`provider not configured: ${configured.status} ${await configured.text()}`);

    const rows: { name: string; load: (target: ServiceProcess) => LoadOptions }[] = [
      {
        name: 'keyed read (GET /v1/providers)',
        load: (target) => ({
          url: `${target.url}/v1/providers`,
          headers,
          connections: 20,
          durationSeconds: SECONDS,
          serverPid: target.pid,
        }),
      },
      {
        name: 'gateway, non-streaming (POST /v1/chat/completions)',
        load: (target) => ({
          url: `${target.url}/v1/chat/completions`,
          method: 'POST',
          headers,
          body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
          connections: 20,
          durationSeconds: SECONDS,
          serverPid: target.pid,
        }),
      },
    ];
    const cases = [
      ...(untraced ? [{ label: 'off vs a build without telemetry', target: untraced, maxCost: 0.02 }] : []),
      { label: 'off, a second process (noise)', target: offAgain, maxCost: 0.02 },
      { label: 'on, 10% sampled', target: tenth, maxCost: 0.05 },
      { label: 'on, 100% sampled', target: all, maxCost: 0.15 },
    ];
    // A short round against each process first: the measured rounds find them warm (JIT, pools).
    for (const target of [off, ...cases.map((c) => c.target)])
      for (const row of rows) await runLoad({ ...row.load(target), durationSeconds: 2 });
    for (const row of rows) {
      const measured = await interleave(
        row.load(off),
        cases.map((c) => row.load(c.target)),
      );
      cases.forEach((c, i) => {
        const { subject, pairedRatio, pairedServerCpuRatio } = measured.subjects[i];
        const baseline = measured.baseline;
        // Against a build without telemetry, "off" is the subject: the build is the baseline.
        const ratio = c.target === untraced ? 1 / pairedRatio : pairedRatio;
        const cpuRatio = c.target === untraced ? 1 / pairedServerCpuRatio : pairedServerCpuRatio;
        const cost = 1 - ratio;
        const clean = subject.non2xx + subject.errors + baseline.non2xx + baseline.errors === 0;
        const pass = cost < c.maxCost && clean;
        lines.push(
          `${pass ? 'PASS' : 'FAIL'}  ${row.name}: tracing ${c.label}${c.target === untraced ? '' : ' vs off'}`,
          `      subject:  ${subject.requestsPerSecond.toFixed(0)} req/s, p50 ${subject.p50Ms} ms, p99 ${subject.p99Ms} ms, ${perRequest(subject)}${clean ? '' : ` (${subject.non2xx + baseline.non2xx} non-2xx, ${subject.errors + baseline.errors} errors)`}`,
          `      off:      ${baseline.requestsPerSecond.toFixed(0)} req/s, p50 ${baseline.p50Ms} ms, p99 ${baseline.p99Ms} ms, ${perRequest(baseline)}`,
          `      ratio:    ${(ratio * 100).toFixed(1)}% of the throughput, ${(cpuRatio * 100).toFixed(1)}% of the CPU per request, paired per round (target: costs < ${c.maxCost * 100}%)`,
        );
      });
    }
    lines.push(offResidue());
    lines.push(`      (${sink.received()} OTLP exports received)`);
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    standIn.child.kill();
    sink.close();
    await dropDatabase(server.url, names.llm).catch(() => undefined);
    await dropDatabase(server.url, names.platform).catch(() => undefined);
    await server.stop();
  }
  return lines;
}
