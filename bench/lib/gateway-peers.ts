import { Worker } from 'node:worker_threads';
import { percentile } from '@platform/testkit';
import { runLoad, type LoadResult } from './load';

/** One OpenAI-compatible endpoint in the comparison: its chat completions URL and the headers it wants. */
export interface Peer {
  url: string;
  headers: Record<string, string>;
}

export interface PeerSet {
  gateway: Peer;
  bareProxy: Peer;
  portkey: Peer;
  /** Express + the official OpenAI SDK relaying, nothing else: this design's stack's floor. */
  floor: Peer;
  /** The stand-in itself, to subtract from each time to first token. */
  direct: Peer;
}

// 20 connections, random pauses (mean 100 ms: ~200 streams/s), time to the first byte of each
// answer; a failed stream (a status other than 200, a broken connection) is counted, not fatal.
const TTFT_CLIENT = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, payload, seconds } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const latencies = [];
let errors = 0;
const stream = () => new Promise((resolve) => {
  const started = performance.now();
  const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
    if (res.statusCode !== 200) { errors++; res.resume(); return resolve(); }
    res.once('data', () => latencies.push(performance.now() - started));
    res.on('data', () => {});
    res.on('end', resolve);
    res.on('error', () => { errors++; resolve(); });
  });
  req.on('error', () => { errors++; resolve(); });
  req.end(payload);
});
(async () => {
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 20 }, async () => {
    await sleep(Math.random() * 200);
    while (Date.now() < until) { await stream(); await sleep(Math.random() * 200); }
  }));
  parentPort.postMessage({ latencies, errors });
})();
`;

function ttftRound(peer: Peer, body: object, seconds: number): Promise<{ latencies: number[]; errors: number }> {
  const worker = new Worker(TTFT_CLIENT, {
    eval: true,
    workerData: { ...peer, payload: JSON.stringify(body), seconds },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: { latencies: number[]; errors: number }) => {
      void worker.terminate().catch(() => undefined);
      resolve(result);
    });
    worker.once('error', reject);
  });
}

const NAMES: Record<keyof Omit<PeerSet, 'direct'>, string> = {
  gateway: 'our gateway  ',
  bareProxy: 'bare proxy   ',
  portkey: 'Portkey      ',
  floor: 'Express + SDK',
};

/**
 * Our gateway beside its peers, each forwarding to the same stand-in, taking turns in `rounds`
 * rounds (each in a different order): saturated whole answers over 20 connections (best round's
 * throughput, errors from every round), and the time to first token each adds to the stand-in's
 * own at ~200 streams/s (p50, p99). Prints the targets: throughput at least half the bare
 * proxy's and twice Portkey's with no errors; TTFT added p50 within 1.25x of the floor's, p99 < 5 ms.
 */
export async function peersRow(
  peers: PeerSet,
  {
    seconds,
    rounds,
    wholeBody,
    streamBody,
  }: { seconds: number; rounds: number; wholeBody: object; streamBody: object },
): Promise<string[]> {
  const names = Object.keys(NAMES) as (keyof typeof NAMES)[];
  const best = new Map<string, LoadResult>();
  const failed = new Map<string, number>();
  const roundSeconds = Math.max(1, Math.round(seconds / rounds));
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const result = await runLoad({
        ...peers[name],
        method: 'POST',
        body: wholeBody,
        connections: 20,
        durationSeconds: roundSeconds,
      });
      failed.set(name, (failed.get(name) ?? 0) + result.non2xx + result.errors);
      if (result.requestsPerSecond > (best.get(name)?.requestsPerSecond ?? -1)) best.set(name, result);
    }
  }
  const latencies = new Map<string, number[]>();
  const ttftErrors = new Map<string, number>();
  const timed = ['direct', ...names] as const;
  for (let round = 0; round < rounds; round++) {
    const order = timed.map((_, i) => timed[(i + round) % timed.length]);
    for (const name of order) {
      const result = await ttftRound(peers[name], streamBody, roundSeconds);
      latencies.set(name, [...(latencies.get(name) ?? []), ...result.latencies]);
      ttftErrors.set(name, (ttftErrors.get(name) ?? 0) + result.errors);
    }
  }
  const direct = latencies.get('direct')!;
  const added = (name: string, q: number) => percentile(latencies.get(name)!, q) - percentile(direct, q);
  const rps = (name: string) => best.get(name)!.requestsPerSecond;
  const gatewayErrors = failed.get('gateway')! + ttftErrors.get('gateway')!;
  const throughputOk =
    rps('gateway') >= 0.5 * rps('bareProxy') && rps('gateway') >= 2 * rps('portkey') && gatewayErrors === 0;
  const ttftOk = added('gateway', 0.5) <= 1.25 * added('floor', 0.5) && added('gateway', 0.99) < 5;
  const streamsPerSecond = Math.round(latencies.get('gateway')!.length / (rounds * roundSeconds));
  return [
    `${throughputOk ? 'PASS' : 'FAIL'}  beside the peers: saturated /v1/chat/completions, 20 connections (target >= 0.5x the bare proxy and >= 2x Portkey, zero errors)`,
    ...names.map(
      (name) =>
        `      ${NAMES[name]}: ${rps(name).toFixed(0)} req/s (best of ${rounds} rounds of ${roundSeconds} s), p50 ${best.get(name)!.p50Ms} ms, p99 ${best.get(name)!.p99Ms} ms, ${failed.get(name)} errors`,
    ),
    `      ours / bare proxy ${(rps('gateway') / rps('bareProxy')).toFixed(2)}, ours / Portkey ${(rps('gateway') / rps('portkey')).toFixed(2)}`,
    `${ttftOk ? 'PASS' : 'FAIL'}  beside the peers: time to first token added, ~${streamsPerSecond} streams/s (target p50 <= 1.25x the Express + SDK floor's, p99 < 5 ms)`,
    ...names.map((name) =>
      latencies.get(name)!.length
        ? `      ${NAMES[name]}: p50 +${added(name, 0.5).toFixed(2)} ms, p99 +${added(name, 0.99).toFixed(2)} ms (${latencies.get(name)!.length} streams, ${ttftErrors.get(name)} errors)`
        : `      ${NAMES[name]}: no stream answered (${ttftErrors.get(name)} errors)`,
    ),
    `      stand-in directly: p50 ${percentile(direct, 0.5).toFixed(2)} ms, p99 ${percentile(direct, 0.99).toFixed(2)} ms`,
  ];
}
