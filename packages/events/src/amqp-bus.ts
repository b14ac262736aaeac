import { randomUUID } from 'node:crypto';
import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { DependencyStatus, Logger } from '@platform/http';
import { DEFAULT_MAX_ATTEMPTS, retryDelay, type EventBus, type Subscription } from './bus';
import type { EventEnvelope } from './envelope';
import { tracedSubscription } from './event-tracing';

export const EXCHANGE = 'platform.events';
const ATTEMPT_HEADER = 'x-attempt';

export interface AmqpBusOptions {
  url: string;
  logger: Logger;
  /** Prefix for the exchange and every queue, so several environments can share one broker. */
  namespace?: string;
  /** Queues unused this long are deleted by the broker (throw-away environments such as tests). */
  queueExpiresMs?: number;
  /** Longest wait between reconnection attempts. */
  maxReconnectDelayMs?: number;
}

/**
 * RabbitMQ through amqplib: a durable topic exchange, publisher confirms, one durable queue
 * per consumer with manual acks, retries through a TTL queue that dead-letters back into the
 * main queue, and a `.dlq` queue for messages that used up their attempts. Reconnects by
 * itself and re-declares its consumers; while it is away, publish() rejects and the outbox
 * keeps the events.
 */
export class AmqpBus implements EventBus {
  private connection?: ChannelModel;
  private publishChannel?: ConfirmChannel;
  private readonly subscriptions: Subscription[] = [];
  private connecting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelayMs = 250;
  private closed = false;

  private readonly exchange: string;
  /** This process's own queue name for each per-process subscription, kept across reconnects. */
  private readonly ownQueues = new Map<Subscription, string>();

  constructor(private readonly options: AmqpBusOptions) {
    this.exchange = `${options.namespace ?? ''}${EXCHANGE}`;
  }

  private queueName(queue: string): string {
    return `${this.options.namespace ?? ''}${queue}`;
  }

  /** Connects now; on failure keeps trying in the background and resolves anyway. */
  async start(): Promise<void> {
    await this.connect().catch((error) => {
      this.options.logger.warn('broker unreachable, will retry', { error: String(error) });
      this.scheduleReconnect();
    });
  }

  status(): DependencyStatus {
    return this.publishChannel ? 'up' : 'down';
  }

  async publish(event: EventEnvelope): Promise<void> {
    const channel = this.publishChannel;
    if (!channel) throw new Error('broker is not connected');
    await new Promise<void>((resolve, reject) => {
      channel.publish(
        this.exchange,
        event.type,
        Buffer.from(JSON.stringify(event)),
        {
          persistent: true,
          messageId: event.id,
          contentType: 'application/json',
          type: event.type,
          // traceparent/tracestate for tools that read them from the message (the body has them too).
          ...(event.trace && { headers: { ...event.trace } }),
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  async subscribe(untraced: Subscription): Promise<void> {
    const subscription = tracedSubscription(untraced);
    this.subscriptions.push(subscription);
    if (this.connection) await this.consume(this.connection, subscription);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    this.publishChannel = undefined;
    await connection?.close().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const connection = await amqp.connect(this.options.url, { timeout: 5_000 });
    connection.on('error', (error) => this.options.logger.warn('broker connection error', { error: String(error) }));
    connection.on('close', () => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      this.publishChannel = undefined;
      if (!this.closed) {
        this.options.logger.warn('broker connection closed, reconnecting');
        this.scheduleReconnect();
      }
    });
    try {
      const channel = await connection.createConfirmChannel();
      channel.on('error', () => undefined);
      await channel.assertExchange(this.exchange, 'topic', { durable: true });
      // By index, re-reading the length: a subscribe() that arrives while this loop awaits is
      // picked up here rather than missed until the next reconnect.
      for (let i = 0; i < this.subscriptions.length; i++) await this.consume(connection, this.subscriptions[i]);
      this.connection = connection;
      this.publishChannel = channel;
      this.reconnectDelayMs = 250;
      this.options.logger.info('broker connected');
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, this.options.maxReconnectDelayMs ?? 5_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().catch(() => this.scheduleReconnect());
    }, delay);
  }

  private async consume(connection: ChannelModel, subscription: Subscription): Promise<void> {
    if (subscription.perProcess) return this.consumeOwn(connection, subscription);
    const queue = this.queueName(subscription.queue);
    const expires = this.options.queueExpiresMs ? { expires: this.options.queueExpiresMs } : {};
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined);
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: true, ...expires });
    // Messages wait here for their retry delay, then expire back into the main queue.
    await channel.assertQueue(`${queue}.retry`, {
      durable: true,
      deadLetterExchange: '',
      deadLetterRoutingKey: queue,
      ...expires,
    });
    await channel.assertQueue(`${queue}.dlq`, { durable: true, ...expires });
    for (const topic of subscription.topics) await channel.bindQueue(queue, this.exchange, topic);
    await channel.prefetch(subscription.prefetch ?? 10);
    await channel.consume(queue, (message) => {
      if (!message) return;
      this.handle(channel, subscription, queue, message).catch((error) =>
        this.options.logger.warn('message handling interrupted', { queue, error: String(error) }),
      );
    });
  }

  private async consumeOwn(connection: ChannelModel, subscription: Subscription): Promise<void> {
    let queue = this.ownQueues.get(subscription);
    if (!queue) this.ownQueues.set(subscription, (queue = `${this.queueName(subscription.queue)}.${randomUUID()}`));
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { exclusive: true, autoDelete: true, durable: false });
    for (const topic of subscription.topics) await channel.bindQueue(queue, this.exchange, topic);
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        let event: EventEnvelope;
        try {
          event = JSON.parse(message.content.toString('utf8')) as EventEnvelope;
        } catch {
          return;
        }
        subscription
          .handler(event)
          .catch((error) =>
            this.options.logger.warn('event handler failed', { queue, type: event.type, error: String(error) }),
          );
      },
      { noAck: true },
    );
  }

  private async handle(
    channel: ConfirmChannel,
    subscription: Subscription,
    queue: string,
    message: ConsumeMessage,
  ): Promise<void> {
    const attempt = Number(message.properties.headers?.[ATTEMPT_HEADER] ?? 1);
    let event: EventEnvelope;
    try {
      event = JSON.parse(message.content.toString('utf8')) as EventEnvelope;
    } catch {
      await this.forward(channel, `${queue}.dlq`, message, attempt, { 'x-error': 'unparseable message' });
      return;
    }
    try {
      await subscription.handler(event);
      channel.ack(message);
    } catch (error) {
      const maxAttempts = subscription.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      const last = attempt >= maxAttempts;
      this.options.logger[last ? 'error' : 'warn'](last ? 'event dead-lettered' : 'event handler failed, will retry', {
        queue,
        eventId: event.id,
        type: event.type,
        attempt,
        error: String(error),
      });
      if (last) {
        await this.forward(channel, `${queue}.dlq`, message, attempt, { 'x-error': String(error).slice(0, 500) });
      } else {
        await this.forward(channel, `${queue}.retry`, message, attempt + 1, {}, retryDelay(subscription, attempt));
      }
    }
  }

  /** Moves a message to another queue, acknowledging the original only once the copy is confirmed. */
  private async forward(
    channel: ConfirmChannel,
    target: string,
    message: ConsumeMessage,
    attempt: number,
    headers: Record<string, string>,
    delayMs?: number,
  ): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => {
        channel.sendToQueue(
          target,
          message.content,
          {
            persistent: true,
            messageId: message.properties.messageId,
            contentType: 'application/json',
            type: message.properties.type,
            headers: { ...message.properties.headers, ...headers, [ATTEMPT_HEADER]: attempt },
            ...(delayMs !== undefined ? { expiration: String(delayMs) } : {}),
          },
          (error) => (error ? reject(error) : resolve()),
        );
      });
      channel.ack(message);
    } catch {
      // The broker did not take the copy: leave the original unacknowledged so it is redelivered.
      channel.nack(message, false, true);
    }
  }
}
