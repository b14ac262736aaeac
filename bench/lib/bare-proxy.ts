import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from './listen';

/**
 * The least a Node gateway can do: node:http passing each request to `target` with `headers`
 * added and piping the answer back, nothing parsed, checked or logged. Measured beside the
 * gateway, it shows what the machine itself costs a stream (two more sockets and a process hop).
 */
export async function listenBareProxy(target: string, headers: Record<string, string>): Promise<Listening> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const server = http.createServer((req, res) => {
    const outgoing = http.request(target, { method: req.method, agent, headers: { ...req.headers, ...headers } });
    outgoing.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    outgoing.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
