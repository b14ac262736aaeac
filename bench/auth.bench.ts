/**
 * Authentication benchmarks (`pnpm bench auth`):
 * 1. POST /v1/login throughput against the bcrypt floor measured in the same run: how many
 *    bcrypt comparisons per second this machine does at the configured cost with every
 *    thread-pool thread busy. Login costs one comparison, so the floor is its ceiling;
 *    target >= 85% of it.
 * 2. GET /v1/me throughput against a bare Express app that only verifies the same JWT;
 *    target >= 70%.
 * Each comparison alternates baseline and subject (BENCH_ROUNDS rounds of BENCH_SECONDS each)
 * and prints how much CPU this process got on each side: on a shared machine, other
 * processes take the rest, and that share moves the ratio more than anything measured here.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type Bcrypt from 'bcrypt';
import type Express from 'express';
import type Jwt from 'jsonwebtoken';
import { createTestService, percentile } from '@platform/testkit';
import { authService } from '../services/auth/src';
import { benchDatabaseServer } from './lib/database';
import { listenBare, listenService } from './lib/listen';
import { compare, formatComparison, runLoad, type LoadResult } from './lib/load';

// The same copies of bcrypt, Express and jsonwebtoken the service runs on (they are its dependencies, not the root's).
const requireFromAuth = createRequire(path.join(__dirname, '../services/auth/package.json'));
const bcrypt = requireFromAuth('bcrypt') as typeof Bcrypt;
const express = requireFromAuth('express') as typeof Express;
const jwt = requireFromAuth('jsonwebtoken') as typeof Jwt;

const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);
/** Alternating rounds per comparison (BENCH_ROUNDS, default 3). */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * bcrypt.compare calls per second with `concurrency` always in flight, counted as autocannon
 * counts requests: completions inside the window, divided by the window.
 */
async function bcryptFloor(cost: number, durationSeconds: number, concurrency: number): Promise<LoadResult> {
  const hash = await bcrypt.hash('correct horse battery', cost);
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + durationSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const began = performance.now();
      await bcrypt.compare('correct horse battery', hash);
      if (performance.now() <= deadline) latencies.push(performance.now() - began);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const at = (q: number) => Math.round(percentile(latencies, q) || 0);
  return {
    requestsPerSecond: latencies.length / durationSeconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    non2xx: 0,
    errors: 0,
  };
}

/** Averages of several runs: throughput and p50 averaged, worst p99, failures summed. */
function combine(results: LoadResult[]): LoadResult {
  const avg = (pick: (r: LoadResult) => number) => results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    requestsPerSecond: avg((r) => r.requestsPerSecond),
    p50Ms: Math.round(avg((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

interface Measured {
  result: LoadResult;
  /** CPU time this process used per second of the run (100 = one core). */
  cpuPercent: number;
}

async function measured(run: () => Promise<LoadResult>): Promise<Measured> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return { result, cpuPercent: ((used.user + used.system) / 1000 / (performance.now() - start)) * 100 };
}

interface Alternated {
  baseline: LoadResult;
  subject: LoadResult;
  baselineCpu: number;
  subjectCpu: number;
}

/**
 * Runs baseline and subject in A-B-B-A order `rounds` times, so that background load that
 * comes and goes on a shared machine weighs on both sides alike.
 */
async function alternate(
  rounds: number,
  baseline: () => Promise<LoadResult>,
  subject: () => Promise<LoadResult>,
): Promise<Alternated> {
  const b: Measured[] = [];
  const s: Measured[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      b.push(await measured(baseline));
      s.push(await measured(subject));
    } else {
      s.push(await measured(subject));
      b.push(await measured(baseline));
    }
  }
  const meanCpu = (runs: Measured[]) => runs.reduce((sum, r) => sum + r.cpuPercent, 0) / runs.length;
  return {
    baseline: combine(b.map((r) => r.result)),
    subject: combine(s.map((r) => r.result)),
    baselineCpu: meanCpu(b),
    subjectCpu: meanCpu(s),
  };
}

/** How much CPU this process got on each side: other processes on a shared machine take the rest. */
function cpuLine(runs: Alternated): string {
  return `      cpu:      this process used ${runs.subjectCpu.toFixed(0)}% (subject) and ${runs.baselineCpu.toFixed(0)}% (baseline) of ${availableParallelism() * 100}%`;
}

export default async function authBench(): Promise<string[]> {
  const database = await benchDatabaseServer();
  // The configured cost (BCRYPT_COST, default 10); limits out of the way of a load test.
  const svc = await createTestService(authService, {
    env: { AUTH_RATE_LIMIT_PER_IP: '100000000', AUTH_RATE_LIMIT_PER_EMAIL: '100000000' },
  });
  const { config } = svc.parts.shared;
  const subject = await listenService(svc.app);
  const { url } = subject;
  const lines: string[] = [];
  try {
    const project = await svc.createProject();
    const credentials = { email: 'bench@example.com', password: 'correct horse battery' };
    const registered = await fetch(`${url}/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...project.headers },
      body: JSON.stringify(credentials),
    });
    const { accessToken } = (await registered.json()) as { accessToken: string };
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

    // 1. Login against the bcrypt floor.
    const concurrency = threads * 4;
    const loginLoad = {
      url: `${url}/v1/login`,
      method: 'POST' as const,
      headers: project.headers,
      body: credentials,
      connections: concurrency,
    };
    await bcryptFloor(config.bcryptCost, 1, concurrency);
    await runLoad({ ...loginLoad, durationSeconds: 1 });
    const logins = await alternate(
      rounds,
      () => bcryptFloor(config.bcryptCost, seconds(), concurrency),
      () => runLoad(loginLoad),
    );
    const title = `POST /v1/login vs bcrypt floor (cost ${config.bcryptCost}, ${threads} pool threads, ${concurrency} in flight)`;
    lines.push(formatComparison(compare(title, logins.subject, logins.baseline, 0.85)), cpuLine(logins));

    // 2. GET /v1/me against a bare Express app verifying the same JWT.
    const publicKey = svc.deps.jwt.publicKey;
    const bare = express();
    bare.get('/v1/me', (req, res) => {
      const token = (req.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
      try {
        res.json({ user: jwt.verify(token, publicKey, { algorithms: ['RS256'] }) });
      } catch {
        res.status(401).json({ success: false });
      }
    });
    const baselineServer = await listenBare(bare);
    const authHeaders = { authorization: `Bearer ${accessToken}` };
    try {
      await runLoad({ url: `${baselineServer.url}/v1/me`, headers: authHeaders, durationSeconds: 1 });
      await runLoad({ url: `${url}/v1/me`, headers: authHeaders, durationSeconds: 1 });
      const me = await alternate(
        rounds,
        () => runLoad({ url: `${baselineServer.url}/v1/me`, headers: authHeaders }),
        () => runLoad({ url: `${url}/v1/me`, headers: authHeaders }),
      );
      lines.push(
        formatComparison(compare('GET /v1/me vs bare Express verifying the same JWT', me.subject, me.baseline, 0.7)),
        cpuLine(me),
      );
    } finally {
      await baselineServer.close();
    }
  } finally {
    await subject.close();
    await svc.close();
    await database.stop();
  }
  return lines;
}
