import { currentTraceCarrier, type TraceCarrier } from '@platform/telemetry';
import { randomUUID } from 'node:crypto';

/** What travels between services: a versioned JSON payload with its tenant, under a stable id. */
export interface EventEnvelope<T = unknown> {
  id: string;
  /** e.g. `auth.user.registered`; also the routing key. */
  type: string;
  version: number;
  occurredAt: string;
  tenantId: string;
  projectId: string;
  data: T;
  /** W3C trace context of the operation that wrote the event (only while tracing is on). */
  trace?: TraceCarrier;
}

export interface NewEvent<T = unknown> {
  type: string;
  version?: number;
  tenantId: string;
  projectId: string;
  data: T;
}

/** A new envelope; made during a trace (a signal published straight to the bus), it carries that trace's context. */
export function envelopeOf<T>(event: NewEvent<T>): EventEnvelope<T> {
  const envelope: EventEnvelope<T> = {
    id: randomUUID(),
    type: event.type,
    version: event.version ?? 1,
    occurredAt: new Date().toISOString(),
    tenantId: event.tenantId,
    projectId: event.projectId,
    data: event.data,
  };
  const trace = currentTraceCarrier();
  if (trace) envelope.trace = trace;
  return envelope;
}

/** Topic matching as RabbitMQ does it: `*` is one word, `#` is zero or more. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const p = pattern.split('.');
  const k = routingKey.split('.');
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    if (p[i] === '#') return match(i + 1, j) || (j < k.length && match(i, j + 1));
    if (j === k.length) return false;
    return (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
  };
  return match(0, 0);
}
