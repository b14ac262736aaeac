import { Writable } from 'node:stream';

/** A stream for `createLogger(service, level, destination)` that keeps every line written to it. */
export function logLines(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(chunk.toString());
      done();
    },
  });
  return { destination, lines };
}
