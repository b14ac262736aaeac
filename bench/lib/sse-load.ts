/**
 * The live-streams bench's load generator, run in a child process (its own file-descriptor
 * limit and event loop). Holds many Server-Sent Events connections and records, per marked
 * notification title, when each connection received it (epoch milliseconds, comparable with
 * the parent's clock).
 */
import { Agent, request } from 'node:http';

interface Open {
  type: 'open';
  url: string;
  headers: Record<string, string>;
  users: string[];
}

const timeNow = () => performance.timeOrigin + performance.now();
const arrivals = new Map<string, number[]>();
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let connected = 0;
let failed = 0;

function connect(url: string, headers: Record<string, string>, user: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${url}?userId=${user}`, { headers, agent }, (res) => {
      if (res.statusCode !== 200) {
        failed++;
        res.resume();
        return resolve();
      }
      res.setEncoding('utf8');
      let tail = '';
      let hello = false;
      res.on('data', (chunk: string) => {
        const at = timeNow();
        const text = tail + chunk;
        if (!hello && text.includes('event: unread_count')) {
          hello = true;
          connected++;
          resolve();
        }
        for (const match of text.matchAll(/"title":"(mark-[^"]+)"/g)) {
          let list = arrivals.get(match[1]);
          if (!list) arrivals.set(match[1], (list = []));
          list.push(at);
        }
        tail = text.slice(-64);
      });
    });
    req.on('error', () => {
      failed++;
      resolve();
    });
    req.end();
  });
}

async function open(message: Open): Promise<void> {
  let next = 0;
  // Opened 200 at a time: a burst of 10,000 SYNs would overflow the listen backlog.
  const lane = async () => {
    while (next < message.users.length) await connect(message.url, message.headers, message.users[next++]);
  };
  await Promise.all(Array.from({ length: 200 }, lane));
  process.send!({ type: 'opened', connected, failed });
}

process.on('message', (message: Open | { type: 'arrivals'; title: string } | { type: 'exit' }) => {
  if (message.type === 'open') void open(message);
  else if (message.type === 'arrivals') {
    process.send!({ type: 'arrivals', times: arrivals.get(message.title) ?? [] });
  } else process.exit(0);
});
process.send!({ type: 'ready' });
