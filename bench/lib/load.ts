import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  durationSeconds?: number;
  /** Requests per second across all connections; unset: as fast as the server answers. */
  overallRate?: number;
}

/** Drives one URL with autocannon (loopback only) and returns throughput and latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
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

export function compare(name: string, subject: LoadResult, baseline: LoadResult, minRatio: number, extra?: (s: LoadResult) => boolean): Comparison {
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
