import { currentTraceCarrier, inRecordedTrace, inTrace, logTraceFields, tracingActive } from '@platform/telemetry';

const CALLS = 1_000_000;

/**
 * What tracing off still does per request: the no-op API calls of the packages (a log line's
 * trace fields, an event's trace context, the checks before a span), timed here in this process,
 * where no SDK is registered, as the services run with no endpoint set. The SDK itself is never
 * loaded then (`startTelemetry`).
 */
export function offResidue(): string {
  if (tracingActive()) return 'off residue: not measured (an SDK is registered in the bench process)';
  const calls: [string, () => unknown][] = [
    ['logTraceFields', logTraceFields],
    ['currentTraceCarrier', currentTraceCarrier],
    ['inTrace', inTrace],
    ['inRecordedTrace', inRecordedTrace],
    ['tracingActive', tracingActive],
  ];
  const timings = calls.map(([name, call]) => {
    for (let i = 0; i < CALLS / 10; i++) call();
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) call();
    return `${name} ${(Number(process.hrtime.bigint() - started) / CALLS).toFixed(0)} ns`;
  });
  return `      tracing off, per no-op call: ${timings.join(', ')}`;
}
