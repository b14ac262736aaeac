import { request, type IncomingHttpHeaders } from 'node:http';
import { waitFor } from '@platform/testkit';

export interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** Events in arrival order (comment lines are counted in `comments`, not kept here). */
  events: SseEvent[];
  comments: number;
  /** The error body when the status is not 200. */
  body: unknown;
  /** True once the server ended the stream. */
  ended: boolean;
  /** Waits until an event matching `match` arrives (after `from`, an index into `events`) and returns it. */
  next(match: (event: SseEvent) => boolean, from?: number): Promise<SseEvent>;
  /** Stops reading, as a client that has stalled. */
  pause(): void;
  close(): void;
}

/** A minimal Server-Sent Events client over node:http, parsing events as the WHATWG spec says. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: 0,
        body: undefined,
        ended: false,
        async next(match, from = 0) {
          return waitFor(() => client.events.slice(from).find(match), { timeoutMs: 10_000 });
        },
        pause: () => res.pause(),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      if (client.status !== 200) {
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          client.body = text ? JSON.parse(text) : undefined;
          resolve(client);
        });
        return;
      }
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments++;
            const colon = line.indexOf(':');
            if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
          }
          if (fields.data !== undefined) {
            client.events.push({ id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) });
          }
        }
      });
      const ended = () => {
        client.ended = true;
      };
      res.on('end', ended);
      res.on('close', ended);
      res.on('error', ended);
      res.socket.on('close', ended);
      resolve(client);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The events of one kind, with their data. */
export const named = (client: SseClient, event: string) =>
  client.events.filter((e) => e.event === event).map((e) => e.data);

/** The last unread count the stream reported. */
export const lastCount = (client: SseClient) => {
  const counts = named(client, 'unread_count') as { count: number }[];
  return counts.length ? counts[counts.length - 1].count : undefined;
};
