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

interface LoggingService {
  deps: {
    logger: { transports: { silent?: boolean }[]; on(event: 'data', listener: (info: unknown) => void): unknown };
  };
}

/**
 * Starts a test service with every log level on (the access log included) and keeps each line
 * its logger writes, as JSON, in `lines`; the console stays quiet.
 */
export async function startWithLogLines<T>(
  start: () => Promise<T>,
  serviceOf: (started: T) => LoggingService,
): Promise<{ started: T; lines: string[] }> {
  const level = process.env.TEST_LOG_LEVEL;
  process.env.TEST_LOG_LEVEL = 'debug';
  let started: T;
  try {
    started = await start();
  } finally {
    if (level === undefined) delete process.env.TEST_LOG_LEVEL;
    else process.env.TEST_LOG_LEVEL = level;
  }
  const lines: string[] = [];
  const { logger } = serviceOf(started).deps;
  for (const transport of logger.transports) transport.silent = true;
  logger.on('data', (info: unknown) => lines.push(JSON.stringify(info)));
  return { started, lines };
}
