import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook, WebhookDeadlineError } from './webhook-sender';

const servers: Server[] = [];

/** A receiver on 127.0.0.1 answering with `handler`; closed after each test. */
async function receiver(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const options = { timeoutMs: 5_000, deadlineMs: 5_000, maxResponseBytes: 1_024, allowedHosts: ['127.0.0.1'] };

describe('postWebhook', () => {
  it('when the receiver trickles its answer a byte at a time, then the attempt ends at the overall deadline although it is never idle', async () => {
    let ticks = 0;
    const url = await receiver((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => {
        ticks++;
        res.write('x');
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
    // The idle timeout alone would never fire: a byte arrives every 20 ms. The deadline leaves a
    // loaded machine time to connect and start the answer before it.
    await expect(postWebhook(url, '{}', {}, { ...options, timeoutMs: 3_000, deadlineMs: 1_000 })).rejects.toThrow(
      WebhookDeadlineError,
    );
    expect(ticks).toBeGreaterThan(0);
  });

  it('when the receiver sends more than the response cap, then reading stops at the cap and the status counts', async () => {
    // An endless answer: only the cap can end this attempt before the deadline.
    const url = await receiver((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(Buffer.alloc(16_384, 'y')), 5);
      res.on('close', () => clearInterval(timer));
    });
    const response = await postWebhook(url, '{}', {}, { ...options, deadlineMs: 20_000 });
    expect(response).toEqual({ statusCode: 200, truncated: true });
  });

  it('when the answer is complete and small, then its status is returned untruncated', async () => {
    const url = await receiver((_req, res) => {
      res.writeHead(503).end('busy');
    });
    await expect(postWebhook(url, '{}', {}, options)).resolves.toEqual({ statusCode: 503, truncated: false });
  });

  it('when the target is a private address that is not allow-listed, then nothing is sent', async () => {
    let reached = false;
    const url = await receiver((_req, res) => {
      reached = true;
      res.end();
    });
    await expect(postWebhook(url, '{}', {}, { ...options, allowedHosts: [] })).rejects.toThrow('target not allowed');
    expect(reached).toBe(false);
  });
});
