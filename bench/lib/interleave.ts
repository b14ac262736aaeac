import { median } from '@platform/testkit';
import { runLoad, type LoadOptions, type LoadResult } from './load';

export interface Interleaved {
  /** The baseline's best round, with the failed requests of every round. */
  baseline: LoadResult;
  subjects: {
    subject: LoadResult;
    /** Median over rounds of subject / baseline throughput within each round. */
    pairedRatio: number;
    /** The same for the server process's CPU per request (NaN without `serverPid`). */
    pairedServerCpuRatio: number;
  }[];
}

/** Keeps the best round's throughput and latency, and the failed requests of every round. */
const merge = (best: LoadResult | undefined, next: LoadResult): LoadResult => {
  if (!best) return next;
  const winner = next.requestsPerSecond > best.requestsPerSecond ? next : best;
  return { ...winner, non2xx: best.non2xx + next.non2xx, errors: best.errors + next.errors };
};

/**
 * Measures a baseline and several subjects in rounds, each round running every target once, in
 * an order that rotates from round to round (so none is always first or last). Each subject's
 * ratios are taken within a round, against that round's baseline: a machine that slows down for
 * a while slows the whole round.
 */
export async function interleave(
  baseline: LoadOptions,
  subjects: LoadOptions[],
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<Interleaved> {
  const targets = [baseline, ...subjects];
  const best: (LoadResult | undefined)[] = targets.map(() => undefined);
  const ratios: number[][] = subjects.map(() => []);
  const cpuRatios: number[][] = subjects.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const results: LoadResult[] = [];
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      results[index] = await runLoad(targets[index]);
    }
    results.forEach((result, index) => (best[index] = merge(best[index], result)));
    const [base, ...others] = results;
    others.forEach((result, index) => {
      ratios[index].push(result.requestsPerSecond / base.requestsPerSecond);
      cpuRatios[index].push((result.serverCpuMsPerRequest ?? NaN) / (base.serverCpuMsPerRequest ?? NaN));
    });
  }
  return {
    baseline: best[0]!,
    subjects: subjects.map((_, index) => ({
      subject: best[index + 1]!,
      pairedRatio: median(ratios[index]),
      pairedServerCpuRatio: median(cpuRatios[index]),
    })),
  };
}
