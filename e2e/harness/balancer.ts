import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: string;
}

export interface Balancer {
  url: string;
  /** Responses the balancer made itself (no ready replica, a replica lost mid-request). */
  ownResponses: { at: number; status: number; reason: string }[];
  /** The replicas it currently sends requests to. */
  ready(): string[];
  close(): Promise<void>;
}

const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 3_000;
/** Failed probes in a row that take a replica out (Kubernetes' failureThreshold). */
const FAILURE_THRESHOLD = 3;

/**
 * What a Kubernetes Service does in front of replicas, small: it probes each replica's /readyz
 * and sends requests round-robin to the ready ones over keep-alive connections. A request that
 * could not connect goes to the next ready replica (it never reached the first, so retrying is
 * safe); a replica lost mid-request is a 502, as an ingress would answer.
 */
export async function startBalancer(upstreams: () => Upstream[]): Promise<Balancer> {
  // Idle connections close after 2 s (the agent drops a free socket on its timeout), so a
  // replica's open sockets follow the load of the moment, not its peak: the soak counts them.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 2_000 });
  const ready = new Set<string>();
  const failures = new Map<string, number>();
  const failed = (url: string) => {
    const count = (failures.get(url) ?? 0) + 1;
    failures.set(url, count);
    if (count >= FAILURE_THRESHOLD) ready.delete(url);
  };
  const ownResponses: Balancer['ownResponses'] = [];
  let turn = 0;
  let closed = false;

  const probe = async () => {
    await Promise.all(
      upstreams().map(async ({ url }) => {
        try {
          const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
          await res.arrayBuffer();
          if (res.status !== 200) return failed(url);
          failures.set(url, 0);
          ready.add(url);
        } catch {
          failed(url);
        }
      }),
    );
  };
  await probe();
  const prober = setInterval(() => void probe(), PROBE_INTERVAL_MS);

  const own = (res: ServerResponse, status: number, reason: string) => {
    ownResponses.push({ at: Date.now(), status, reason });
    if (res.headersSent) return res.destroy();
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '1' } : {}) });
    res.end(JSON.stringify({ success: false, error: { code: 'BALANCER', message: reason } }));
  };

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, tried: Set<string>) => {
    const candidates = upstreams()
      .map((u) => u.url)
      .filter((u) => ready.has(u) && !tried.has(u));
    if (!candidates.length) return own(res, 503, 'no ready replica');
    const target = candidates[turn++ % candidates.length];
    tried.add(target);
    const upstream = request(
      `${target}${req.url}`,
      { method: req.method, headers: { ...req.headers, connection: 'keep-alive' }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') {
        ready.delete(target);
        return forward(req, body, res, tried);
      }
      own(res, 502, `replica ${target} lost mid-request (${error.code ?? error.message})`);
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, new Set()));
  });
  // Longer than the clients' keep-alive, so the balancer never closes a socket a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ownResponses,
    ready: () => [...ready],
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        clearInterval(prober);
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
