/** `pnpm --filter @platform/console build:web [outDir]`: builds the web console (the image ships it in dist/web). */
import path from 'node:path';
import { buildWeb, WEB_BUILT } from './web-build';

buildWeb(process.argv[2] ? path.resolve(process.argv[2]) : WEB_BUILT).then(
  ({ files }) => process.stdout.write(`web console built: ${files.length} files\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
