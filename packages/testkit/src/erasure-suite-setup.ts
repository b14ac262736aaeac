/**
 * What the project and the user erasure suites share: the service started for a describe block
 * on an in-process bus or on RabbitMQ, its erasure job running, and all of it closed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { AmqpBus, InProcessBus, type EventBus } from '@platform/events';
import { createLogger } from '@platform/http';
import type { StopFunction } from '@platform/runtime';
import type { TestService } from './test-service';

export const erasureLogger = createLogger('erasure-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const amqpUrl = process.env.TEST_AMQP_URL;

/** Starts the service on the given bus. */
export type StartOnBus<Shared> = (bus: EventBus) => Promise<TestService<Shared>>;

/** Starts the service's job called `name`; the function returned stops it. */
export function startJob<Shared>(svc: TestService<Shared>, name: string): Promise<StopFunction> {
  const job = svc.parts.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`the service has no job called "${name}"`);
  return job.start();
}

/** The service and the bus it runs on, set once the describe block's `beforeAll` has run. */
export interface OnInProcessBus<Shared> {
  svc: TestService<Shared>;
  bus: InProcessBus;
}

/**
 * In a describe block: before its tests, the service on a fresh in-process bus with its job `job`
 * running (and with `relay`, its outbox relay, so that what it publishes reaches the bus); after
 * them, both closed.
 */
export function onInProcessBus<Shared>(
  start: StartOnBus<Shared>,
  job: string,
  options: { relay?: boolean } = {},
): OnInProcessBus<Shared> {
  const running = {} as Partial<OnInProcessBus<Shared>>;
  beforeAll(async () => {
    running.bus = new InProcessBus(erasureLogger);
    running.svc = await start(running.bus);
    if (options.relay) running.svc.deps.relay.start();
    await startJob(running.svc, job);
  });
  afterAll(async () => {
    await running.svc?.close();
    await running.bus?.close();
  });
  return running as OnInProcessBus<Shared>;
}

/** What a describe block on RabbitMQ gets. */
export interface OnRabbitMq<Shared> {
  /** A new bus on the broker, in the block's own namespace. */
  newBus(): Promise<AmqpBus>;
  /** The service started on `bus`. */
  start(bus: EventBus): Promise<TestService<Shared>>;
}

/**
 * A describe block on RabbitMQ, skipped without `TEST_AMQP_URL`: its buses share a namespace of
 * their own, and after its tests the service it started and then every bus are closed.
 */
export function describeOnRabbitMq<Shared>(
  title: string,
  start: StartOnBus<Shared>,
  tests: (rabbit: OnRabbitMq<Shared>) => void,
): void {
  (amqpUrl ? describe : describe.skip)(title, () => {
    const namespace = `test-${randomBytes(4).toString('hex')}.`;
    const buses: AmqpBus[] = [];
    let svc: TestService<Shared> | undefined;

    afterAll(async () => {
      await svc?.close();
      for (const bus of buses) await bus.close();
    });

    tests({
      async newBus() {
        const bus = new AmqpBus({ url: amqpUrl!, logger: erasureLogger, namespace, queueExpiresMs: 120_000 });
        await bus.start();
        buses.push(bus);
        return bus;
      },
      async start(bus) {
        svc = await start(bus);
        return svc;
      },
    });
  });
}
