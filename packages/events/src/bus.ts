import type { DependencyStatus } from '@platform/http';
import type { EventEnvelope } from './envelope';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Subscription {
  /** Durable queue name, e.g. `mailer.auth-emails`. One queue per consumer, shared by its replicas. */
  queue: string;
  /** Routing-key patterns (`auth.#`, `llm.batch.submitted`). */
  topics: string[];
  handler: EventHandler;
  /** How many messages one process works on at once. */
  prefetch?: number;
  /** Attempts before the message goes to the dead-letter queue. */
  maxAttempts?: number;
  /** Delay before each retry; the last value repeats. */
  retryDelaysMs?: number[];
  /**
   * Fan-out to every process instead of one consumer per queue: each process gets a queue of
   * its own (`queue` plus a random suffix) that the broker deletes when the process goes. No
   * retries and no dead letters; for signals a missed copy of which costs nothing lasting.
   */
  perProcess?: boolean;
}

/** RabbitMQ in deployment, an in-process stand-in with the same contract on the embedded defaults. */
export interface EventBus {
  /** Resolves once the broker has taken responsibility for the event (publisher confirm). */
  publish(event: EventEnvelope): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  status(): DependencyStatus;
  close(): Promise<void>;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
export const DEFAULT_MAX_ATTEMPTS = 5;

export function retryDelay(subscription: Subscription, attempt: number): number {
  const delays = subscription.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  return delays[Math.min(attempt - 1, delays.length - 1)] ?? 1_000;
}
