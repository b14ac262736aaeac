import type { RequestRecord } from './load';
import type { ServiceName } from './platform';

/** Lines of one scenario's report: figures, and checks that pass or fail. */
export class Report {
  readonly lines: string[] = [];
  failures = 0;

  constructor(readonly title: string) {
    this.print(`\n== ${title}`);
  }

  print(line: string): void {
    this.lines.push(line);
    process.stdout.write(`${line}\n`);
  }

  figure(name: string, value: string | number): void {
    this.print(`   ${name}: ${value}`);
  }

  check(name: string, ok: boolean, detail = ''): void {
    if (!ok) this.failures++;
    this.print(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
  }
}

export interface FaultWindow {
  start: number;
  /** When the fault was lifted (a relay restored, a replica killed). */
  end: number;
}

/** Target for the first success after a fault ends. */
export const RECOVERY_TARGET_MS = 5_000;

const overlaps = (r: RequestRecord, from: number, to: number) => r.end >= from && r.start <= to;
const isOk = (r: RequestRecord) => r.status >= 200 && r.status < 500;
const describe = (r: RequestRecord) =>
  `${r.op} ${r.status || r.error}${r.byBalancer ? ' from the balancer' : ''} at +${r.start}ms`;

/**
 * The request checks of every scenario: no 5xx outside the fault window (which ends
 * RECOVERY_TARGET_MS after the fault is lifted); inside it only 503 with Retry-After; no
 * request left without an answer; the first success after the fault within the target.
 */
export function checkRequests(
  report: Report,
  records: RequestRecord[],
  window: FaultWindow | undefined,
  affected: ServiceName[],
  options: { lostInFlightAllowed?: boolean } = {},
): void {
  const t0 = records.length ? Math.min(...records.map((r) => r.start)) : 0;
  const rel = (r: RequestRecord) => ({ ...r, start: r.start - t0 });
  const windowEnd = window ? window.end + RECOVERY_TARGET_MS : 0;
  const inside = window ? records.filter((r) => overlaps(r, window.start, windowEnd)) : [];
  const outside = records.filter((r) => !inside.includes(r));
  const ok = records.filter(isOk).length;
  report.figure('requests', `${records.length} (${ok} answered below 500)`);

  const badOutside = outside.filter((r) => !isOk(r));
  report.check(
    'no 5xx and no unanswered request outside the fault window',
    badOutside.length === 0,
    badOutside.slice(0, 5).map(rel).map(describe).join('; '),
  );
  if (!window) return;
  const lost = inside.filter((r) => options.lostInFlightAllowed && r.byBalancer && r.status === 502);
  if (lost.length) report.figure('requests lost in flight at the killed replica (balancer 502)', lost.length);
  const unavailable = inside.filter((r) => r.status === 503);
  report.figure('503 during the fault window', `${unavailable.length} of ${inside.length}`);
  const wrong = inside.filter((r) => !isOk(r) && !lost.includes(r) && !(r.status === 503 && r.retryAfter !== null));
  report.check(
    'during the fault window only 503 with Retry-After, never a hang past the client timeout',
    wrong.length === 0,
    `${wrong.length} other: ${wrong.slice(0, 5).map(rel).map(describe).join('; ')}`,
  );
  const recoveries = affected.map((service) => {
    const first = records
      .filter((r) => r.service === service && r.start >= window.end && r.status >= 200 && r.status < 300)
      .sort((a, b) => a.end - b.end)[0];
    return { service, ms: first ? first.end - window.end : Infinity };
  });
  const worst = recoveries.reduce((a, b) => (b.ms > a.ms ? b : a));
  report.figure(
    'recovery (first success after the fault)',
    recoveries.map((r) => `${r.service} ${r.ms} ms`).join(', '),
  );
  report.check(
    `recovery within ${RECOVERY_TARGET_MS} ms`,
    worst.ms <= RECOVERY_TARGET_MS,
    `${worst.service} ${worst.ms} ms`,
  );
}

/** Duplicates and missing items of a list against the expected keys. */
export function exactlyOnce(expected: string[], got: string[]): { missing: string[]; duplicated: string[] } {
  const counts = new Map<string, number>();
  for (const key of got) counts.set(key, (counts.get(key) ?? 0) + 1);
  return {
    missing: expected.filter((key) => !counts.has(key)),
    duplicated: [...counts].filter(([, n]) => n > 1).map(([key]) => key),
  };
}
