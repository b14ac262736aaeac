import net from 'node:net';

/** Whether nothing listens on `port` (of every interface, as the services bind). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/**
 * A base in [from, to) such that base + each of `offsets` is free now: for a process started with
 * fixed port offsets (the platform's six services and console), beside other copies of it and
 * beside one that is still going away.
 */
export async function freePortBlock(offsets: readonly number[], from: number, to: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = from + Math.floor(Math.random() * (to - from));
    const free = await Promise.all(offsets.map((offset) => isFree(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no free block of ports between ${from} and ${to}`);
}
