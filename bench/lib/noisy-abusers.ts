/**
 * The abusive side of `pnpm bench noisy`, in a process of its own (so neither the services nor
 * the measured client share its event loop): each pattern runs as a real client would, as fast
 * as its connections allow (closed loop, a bounded number of connections), until the parent
 * sends `stop`; it then answers with each pattern's count of answers by status class.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
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
  /**
   * Slow connections instead of autocannon: `headers` sends its headers a byte a second and never
   * ends them (slowloris), `body` sends whole headers and then its declared body a byte a second.
   * Each connection the server closes is opened again after `reopenMs`.
   */
  slow?: { kind: 'headers' | 'body'; reopenMs: number };
  /** The client's own address (127.0.0.x): an attacker is not the neighbour's address. */
  localAddress?: string;
}

/** `connections` slow clients kept open (reopened when closed) until stopped; counts how each ended. */
function slowClients(pattern: AbusivePattern): { stop(): Promise<Record<string, number>> } {
  const statuses: Record<string, number> = {};
  const count = (key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const { hostname, port, pathname } = new URL(pattern.url);
  const { kind, reopenMs } = pattern.slow!;
  const headerLines = Object.entries(pattern.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const sockets = new Set<net.Socket>();
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: pattern.localAddress });
    sockets.add(socket);
    const opened = Date.now();
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      const head = `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\n${headerLines.join('')}`;
      const rest =
        kind === 'headers'
          ? `x-slow: ${'a'.repeat(10_000)}`
          : `content-type: application/json\r\ncontent-length: 100000\r\n\r\n{"a":"${'b'.repeat(99_990)}"}`;
      socket.write(kind === 'headers' ? head : `${head}${rest.slice(0, rest.indexOf('\r\n\r\n') + 4)}`);
      let i = kind === 'headers' ? 0 : rest.indexOf('\r\n\r\n') + 4;
      timer = setInterval(() => {
        if (i < rest.length) socket.write(rest[i++]);
      }, 1_000);
    });
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      answered = true;
      count(/^HTTP\/1\.1 (\d)/.exec(chunk.toString('latin1'))?.[1]?.concat('xx') ?? 'other');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (!answered) count(Date.now() - opened < 100 ? 'refused at once' : 'closed without answer');
      if (!stopped) setTimeout(open, reopenMs);
    });
  };
  for (let i = 0; i < pattern.connections; i++) open();
  return {
    stop: async () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
      return statuses;
    },
  };
}

function abuse(pattern: AbusivePattern): { stop(): Promise<Record<string, number>> } {
  if (pattern.slow) return slowClients(pattern);
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
