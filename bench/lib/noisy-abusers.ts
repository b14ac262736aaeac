/**
 * The abusive side of `pnpm bench noisy`, in a process of its own (so neither the services nor
 * the measured client share its event loop): each pattern runs as a real client would, as fast
 * as its connections allow (closed loop, a bounded number of connections), until the parent
 * sends `stop`; it then answers with each pattern's count of answers by status class.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

export interface AbusivePattern {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** Each request names a made-up public key. */
  randomKeys?: boolean;
}

function abuse(pattern: AbusivePattern): { stop(): Promise<Record<string, number>> } {
  const statuses: Record<string, number> = {};
  const randomKey: autocannon.Request[] = [
    {
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'x-api-key': `pk_${randomBytes(12).toString('hex')}` },
      }),
    },
  ];
  let instance!: autocannon.Instance;
  const finished = new Promise<void>((resolve) => {
    instance = autocannon(
      {
        url: pattern.url,
        method: pattern.method ?? 'GET',
        headers: pattern.headers,
        body: pattern.body,
        connections: pattern.connections,
        duration: 3600,
        ...(pattern.randomKeys ? { requests: randomKey } : {}),
      },
      () => resolve(),
    );
  });
  instance.on('response', (_client: unknown, status: number) => {
    const key = `${Math.floor(status / 100)}xx`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  });
  return {
    stop: async () => {
      instance.stop();
      await finished;
      return statuses;
    },
  };
}

process.once('message', (patterns: AbusivePattern[]) => {
  const running = patterns.map((pattern) => ({ name: pattern.name, load: abuse(pattern) }));
  process.send!({ type: 'started' });
  process.once('message', () => {
    void (async () => {
      const statuses: Record<string, Record<string, number>> = {};
      for (const { name, load } of running) statuses[name] = await load.stop();
      process.send!({ type: 'statuses', statuses }, undefined, undefined, () => process.exit(0));
    })();
  });
});
