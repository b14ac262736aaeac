import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { threadCpuClock } from '@platform/runtime';
import { median } from '@platform/testkit';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time of this (the main) thread per request answered, in ms: the server's cost when the
   * server under test runs on the bench's main thread and the load in workers (Linux only, else NaN).
   */
  mainThreadCpuMsPerRequest?: number;
  /** CPU time (user + system) of the `serverPid` process per request answered, in ms (Linux only, else NaN). */
  serverCpuMsPerRequest?: number;
}

/** The bench's main thread's CPU clock (the server under test runs on it); NaN off Linux. */
const mainThreadCpu = threadCpuClock();
export const threadCpuMs = (): number => mainThreadCpu?.() ?? NaN;

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  durationSeconds?: number;
  /**
   * Worker threads generating the load (BENCH_WORKERS, default 1): off the main thread, so the
   * server under test is not sharing its event loop with the load generator.
   */
  workers?: number;
  /**
   * The server under test when it is a process of its own: its CPU per request is measured
   * beside the throughput (on a shared machine it moves far less than the throughput does).
   */
  serverPid?: number;
}

/** A process's CPU time so far (user + system, all threads) in ms, from /proc; NaN off Linux. */
export function processCpuMs(pid: number): number {
  try {
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux the bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Drives one URL with autocannon (loopback only) and returns throughput and latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const cpuBefore = threadCpuMs();
  const serverCpuBefore = options.serverPid ? processCpuMs(options.serverPid) : NaN;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    workers: options.workers ?? Number(process.env.BENCH_WORKERS ?? 1),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    mainThreadCpuMsPerRequest: (threadCpuMs() - cpuBefore) / Math.max(1, result.requests.total),
    serverCpuMsPerRequest: options.serverPid
      ? (processCpuMs(options.serverPid) - serverCpuBefore) / Math.max(1, result.requests.total)
      : NaN,
  };
}

export interface Comparison {
  name: string;
  subject: LoadResult;
  baseline: LoadResult;
  /** subject throughput / baseline throughput */
  ratio: number;
  target: string;
  pass: boolean;
}

export function compare(
  name: string,
  subject: LoadResult,
  baseline: LoadResult,
  minRatio: number,
  /** A further condition on the subject (a latency bound). */
  extra?: (s: LoadResult) => boolean,
): Comparison {
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  const pass = ratio >= minRatio && subject.non2xx === 0 && subject.errors === 0 && (extra ? extra(subject) : true);
  return { name, subject, baseline, ratio, target: `>= ${Math.round(minRatio * 100)}% of baseline`, pass };
}

export function formatComparison(c: Comparison): string {
  const fmt = (r: LoadResult) => `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`;
  return [
    `${c.pass ? 'PASS' : 'FAIL'}  ${c.name}`,
    `      subject:  ${fmt(c.subject)}${c.subject.non2xx ? ` (${c.subject.non2xx} non-2xx)` : ''}`,
    `      baseline: ${fmt(c.baseline)}`,
    `      ratio:    ${(c.ratio * 100).toFixed(1)}% (target ${c.target})`,
  ].join('\n');
}

/**
 * Measures two targets in alternating rounds (A B, B A, A B, ...) and keeps each one's best
 * round: on a shared machine interference only ever lowers throughput, so the best round is
 * the closest to what the code can do, and alternation exposes both to the same conditions.
 * `pairedRatio` is the median over rounds of subject / baseline within each round: the two runs
 * of a round are back to back, so a machine that slows down for a while slows both.
 * `pairedCpuRatio` is the same for the main thread's CPU per request (NaN off Linux), and
 * `pairedServerCpuRatio` for the `serverPid` process's CPU per request (NaN without one).
 */
export async function alternate(
  subject: LoadOptions,
  baseline: LoadOptions,
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<{
  subject: LoadResult;
  baseline: LoadResult;
  pairedRatio: number;
  pairedCpuRatio: number;
  pairedServerCpuRatio: number;
}> {
  // Throughput and latency from the best round; failed requests from every round, so a
  // round with errors cannot hide behind a clean one.
  const merge = (best: LoadResult | undefined, next: LoadResult): LoadResult => {
    if (!best) return next;
    const winner = next.requestsPerSecond > best.requestsPerSecond ? next : best;
    return { ...winner, non2xx: best.non2xx + next.non2xx, errors: best.errors + next.errors };
  };
  let s: LoadResult | undefined;
  let b: LoadResult | undefined;
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const serverCpuRatios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let subjectRound: LoadResult;
    let baselineRound: LoadResult;
    if (round % 2 === 0) {
      baselineRound = await runLoad(baseline);
      subjectRound = await runLoad(subject);
    } else {
      subjectRound = await runLoad(subject);
      baselineRound = await runLoad(baseline);
    }
    s = merge(s, subjectRound);
    b = merge(b, baselineRound);
    ratios.push(subjectRound.requestsPerSecond / baselineRound.requestsPerSecond);
    cpuRatios.push((subjectRound.mainThreadCpuMsPerRequest ?? NaN) / (baselineRound.mainThreadCpuMsPerRequest ?? NaN));
    serverCpuRatios.push((subjectRound.serverCpuMsPerRequest ?? NaN) / (baselineRound.serverCpuMsPerRequest ?? NaN));
  }
  return {
    subject: s!,
    baseline: b!,
    pairedRatio: median(ratios),
    pairedCpuRatio: median(cpuRatios),
    pairedServerCpuRatio: median(serverCpuRatios),
  };
}
