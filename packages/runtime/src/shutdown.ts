import type { Logger } from '@platform/http';

/** On SIGTERM or SIGINT: run `stop` once (stop accepting, drain, close pools and broker), then exit. */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    stop()
      .then(() => process.exit(0))
      .catch((error) => {
        logger.error('unclean shutdown', { error });
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => handle('SIGTERM'));
  process.once('SIGINT', () => handle('SIGINT'));
}
