/**
 * `pnpm chaos [--ci] [scenario...]`: the fault suite (`--ci`: smaller batches and shorter cuts). Each scenario starts the platform from scratch
 * (fresh databases, fresh processes: two replicas each of auth, llm, mailer and notifications)
 * under steady load from the journeys, injects one fault, and checks what survived. Needs
 * TEST_DATABASE_URL and TEST_AMQP_URL. Exits non-zero when a check fails.
 */
import { scenarios } from './scenarios';

async function main(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL || !process.env.TEST_AMQP_URL)
    throw new Error('pnpm chaos needs TEST_DATABASE_URL and TEST_AMQP_URL (see .ci/run)');
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const chosen = scenarios.filter((s) => !filters.length || filters.some((f) => s.name.includes(f)));
  let failures = 0;
  const summary: string[] = [];
  for (const scenario of chosen) {
    const report = await scenario.run();
    failures += report.failures;
    summary.push(`${report.failures ? 'FAIL' : 'PASS'} ${report.title}`);
  }
  process.stdout.write(
    `\n== summary\n${summary.join('\n')}\n${failures ? `${failures} check(s) failed` : 'all checks passed'}\n`,
  );
  process.exit(failures ? 1 : 0);
}

// Exiting kills the service processes started so far (see processes.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().catch((error) => {
  process.stderr.write(`${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
