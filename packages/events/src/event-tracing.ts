import {
  contextOfCarrier,
  currentTraceCarrier,
  inRecordedTrace,
  inSpan,
  inTrace,
  platformTracer,
  SpanKind,
  context,
  trace,
  type Attributes,
} from '@platform/telemetry';
import type { EventHandler, Subscription } from './bus';
import type { EventEnvelope } from './envelope';

const eventAttributes = (event: Pick<EventEnvelope, 'id' | 'type' | 'tenantId' | 'projectId'>): Attributes => ({
  'messaging.system': 'rabbitmq',
  'messaging.destination.name': event.type,
  'messaging.message.id': event.id,
  'platform.tenant.id': event.tenantId,
  'platform.project.id': event.projectId,
});

/**
 * An `outbox <type>` span for an event written during a trace, whose context the envelope keeps
 * (in the outbox row, then the message): the relay's publish and every consumer continue that
 * trace as its children. Outside a trace the envelope gets no context and nothing is recorded.
 */
export function traceOutboxWrite(envelope: EventEnvelope): void {
  if (!inTrace()) return;
  // An unsampled trace goes on, unsampled, with no span to build.
  if (!inRecordedTrace()) {
    envelope.trace = currentTraceCarrier();
    return;
  }
  const span = platformTracer().startSpan(`outbox ${envelope.type}`, {
    kind: SpanKind.PRODUCER,
    attributes: { ...eventAttributes(envelope), 'messaging.operation.type': 'create' },
  });
  envelope.trace = currentTraceCarrier(trace.setSpan(context.active(), span));
  span.end();
}

/** Publishes the event in a `publish <type>` span under the trace that wrote it (when one did). */
export function publishTraced(event: EventEnvelope, publish: () => Promise<void>): Promise<void> {
  if (!event.trace) return publish();
  return inSpan(
    `publish ${event.type}`,
    {
      kind: SpanKind.PRODUCER,
      parent: contextOfCarrier(event.trace),
      attributes: { ...eventAttributes(event), 'messaging.operation.type': 'send' },
    },
    publish,
  );
}

/**
 * The subscription with its handler run in a `consume <type>` span, a child of the span that
 * wrote the event (its parent, not a link: one event, one cause), so a registration and the
 * e-mail it sends are one trace. Events without a trace context are handled as they were.
 */
export function tracedSubscription(subscription: Subscription): Subscription {
  const handler: EventHandler = (event) => {
    if (!event.trace) return subscription.handler(event);
    return inSpan(
      `consume ${event.type}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextOfCarrier(event.trace),
        attributes: {
          ...eventAttributes(event),
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': subscription.queue,
        },
      },
      () => subscription.handler(event),
    );
  };
  return { ...subscription, handler };
}
