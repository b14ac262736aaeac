/**
 * `pnpm bench [name...]`: runs every bench/*.bench.ts (or those whose name contains an
 * argument) one after another, and prints each comparison. Not part of `pnpm test`.
 * Each bench file's default export returns a list of lines to print (PASS/FAIL summaries).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

// One project drives each service far past any per-project allowance: the limiter still counts
// every request (its cost is measured), it just never refuses one.
process.env.PROJECT_RATE_LIMIT ??= '1000000000';

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
    .sort();
  let failed = 0;
  for (const file of files) {
    process.stdout.write(`\n== ${file}\n`);
    const mod = (await import(path.join(__dirname, file))) as { default: () => Promise<string[]> };
    const lines = await mod.default();
    for (const line of lines) {
      process.stdout.write(`${line}\n`);
      if (line.startsWith('FAIL')) failed++;
    }
  }
  process.stdout.write(`\n${failed ? `${failed} target(s) missed` : 'all targets met'}\n`);
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
