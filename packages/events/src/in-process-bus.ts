import type { DependencyStatus, Logger } from '@platform/http';
import { DEFAULT_MAX_ATTEMPTS, retryDelay, type EventBus, type Subscription } from './bus';
import { topicMatches, type EventEnvelope } from './envelope';
import { tracedSubscription } from './event-tracing';

interface DeadLetter {
  queue: string;
  event: EventEnvelope;
  error: string;
}

/**
 * The event bus when no AMQP_URL is set (all services in one process). Same contract as
 * RabbitMQ: asynchronous delivery, one delivery per queue, retries, then a dead-letter list.
 */
export class InProcessBus implements EventBus {
  private readonly subscriptions: Subscription[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  readonly deadLetters: DeadLetter[] = [];
  private closed = false;

  constructor(private readonly logger?: Logger) {}

  async publish(event: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    // Consumers see a copy, as they would after a trip through a broker.
    const copy = JSON.parse(JSON.stringify(event)) as EventEnvelope;
    for (const subscription of this.subscriptions) {
      if (subscription.topics.some((topic) => topicMatches(topic, event.type))) {
        this.schedule(subscription, copy, 1, 0);
      }
    }
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(tracedSubscription(subscription));
  }

  status(): DependencyStatus {
    return 'none';
  }

  /** Resolves when no delivery is running or waiting (tests). */
  async drain(): Promise<void> {
    while (this.running.size || this.timers.size) {
      await Promise.all([...this.running]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private schedule(subscription: Subscription, event: EventEnvelope, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.deliver(subscription, event, attempt).finally(() => this.running.delete(run));
      this.running.add(run);
    }, delayMs);
    this.timers.add(timer);
  }

  private async deliver(subscription: Subscription, event: EventEnvelope, attempt: number): Promise<void> {
    if (this.closed) return;
    try {
      await subscription.handler(event);
    } catch (error) {
      const maxAttempts = subscription.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      if (attempt >= maxAttempts) {
        this.deadLetters.push({ queue: subscription.queue, event, error: String(error) });
        this.logger?.error('event dead-lettered', {
          queue: subscription.queue,
          eventId: event.id,
          type: event.type,
          error,
        });
        return;
      }
      this.logger?.warn('event handler failed, will retry', {
        queue: subscription.queue,
        eventId: event.id,
        attempt,
        error,
      });
      this.schedule(subscription, event, attempt + 1, retryDelay(subscription, attempt));
    }
  }
}
