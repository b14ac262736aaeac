import { createLogger } from '@platform/http';
import { waitFor } from '@platform/testkit';
import { envelopeOf, InProcessBus, topicMatches } from '../src';

const logger = createLogger('bus-test', 'silent');

describe('in-process bus', () => {
  it('when an event matches two queues, then each queue gets it once', async () => {
    const bus = new InProcessBus(logger);
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe({ queue: 'a', topics: ['auth.#'], handler: async (e) => void a.push(e.id) });
    await bus.subscribe({ queue: 'b', topics: ['auth.user.*'], handler: async (e) => void b.push(e.id) });
    await bus.subscribe({
      queue: 'c',
      topics: ['billing.#'],
      handler: async () => {
        throw new Error('must not be called');
      },
    });
    const event = envelopeOf({ type: 'auth.user.registered', tenantId: 't', projectId: 'p', data: {} });
    await bus.publish(event);
    await bus.drain();
    expect(a).toEqual([event.id]);
    expect(b).toEqual([event.id]);
    await bus.close();
  });

  it('when a handler keeps failing, then it is retried up to maxAttempts and dead-lettered', async () => {
    const bus = new InProcessBus(logger);
    let attempts = 0;
    await bus.subscribe({
      queue: 'failing',
      topics: ['x.y'],
      maxAttempts: 3,
      retryDelaysMs: [5],
      handler: async () => {
        attempts++;
        throw new Error('nope');
      },
    });
    await bus.publish(envelopeOf({ type: 'x.y', tenantId: 't', projectId: 'p', data: {} }));
    await waitFor(() => bus.deadLetters.length === 1);
    expect(attempts).toBe(3);
    expect(bus.deadLetters[0].queue).toBe('failing');
    await bus.close();
  });

  it('when a handler fails once, then the retry succeeds and nothing is dead-lettered', async () => {
    const bus = new InProcessBus(logger);
    let attempts = 0;
    await bus.subscribe({
      queue: 'flaky',
      topics: ['x.z'],
      retryDelaysMs: [5],
      handler: async () => {
        attempts++;
        if (attempts === 1) throw new Error('transient');
      },
    });
    await bus.publish(envelopeOf({ type: 'x.z', tenantId: 't', projectId: 'p', data: {} }));
    await waitFor(() => attempts === 2);
    await bus.drain();
    expect(bus.deadLetters).toEqual([]);
    await bus.close();
  });
});

describe('topic matching', () => {
  it.each([
    ['auth.#', 'auth.user.registered', true],
    ['auth.*', 'auth.user.registered', false],
    ['auth.*.registered', 'auth.user.registered', true],
    ['#', 'anything.at.all', true],
    ['llm.batch.submitted', 'llm.batch.submitted', true],
    ['llm.batch.submitted', 'llm.batch.finished', false],
  ])('when the pattern is %s and the key %s, then it matches: %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
