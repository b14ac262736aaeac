/**
 * The platform side of `pnpm bench noisy`, in a process of its own: all six services in one
 * process, started as `pnpm start` starts them (startService, default settings, in-process bus),
 * each on fresh databases of the bench's Postgres server (dropped as it stops). Tells its parent (over IPC) where the
 * services listen and the keys of three fresh projects; answers `rss` with its resident memory, and
 * `profile-start` / `profile-stop` with a CPU profile of what it did in between (written to `dir`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createProject } from '@platform/directory';
import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';
import { openInfrastructure, startService, loadPlatformConfig } from '@platform/runtime';
import { createLogger } from '@platform/http';
import { keyHeaders } from '@platform/testkit';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';
import { benchDatabaseServer } from './database';

const SERVICES = [authService, billingService, cmsService, llmService, mailerService, notificationsService];

export interface NoisyPlatformReady {
  type: 'ready';
  urls: Record<string, string>;
  projects: Record<'x' | 'y', Record<string, string>>;
}

async function main(): Promise<void> {
  const server = await benchDatabaseServer();
  const run = `noisy_${randomBytes(4).toString('hex')}`;
  const created: string[] = [];
  const database = async (name: string) => {
    created.push(`${run}_${name}`);
    await ensureDatabase(server.url, `${run}_${name}`);
    return withDatabase(server.url, `${run}_${name}`);
  };
  const platformUrl = await database('platform');
  // DATABASE_URL only tells openInfrastructure not to start an embedded server; each service
  // gets a database of its own below, as under `pnpm start`.
  const config = loadPlatformConfig({
    ...process.env,
    PLATFORM_DATABASE_URL: platformUrl,
    DATABASE_URL: platformUrl,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'noisy-bench-')),
  });
  const logger = createLogger('platform', config.logLevel);
  const opened = await openInfrastructure(config, logger);
  const infra = { ...opened, databaseUrl: database };
  const running = await Promise.all(
    SERVICES.map((service) => startService(service, infra, createLogger(service.name, config.logLevel), 0)),
  );
  const urls = Object.fromEntries(
    running.map((s) => [s.name, `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`]),
  );
  const project = async (name: string) =>
    keyHeaders(await createProject(infra.platformDb, infra.secrets, { tenant: run, project: name }));
  const ready: NoisyPlatformReady = { type: 'ready', urls, projects: { x: await project('x'), y: await project('y') } };
  process.send!(ready);
  const profiler = new Session();
  process.on('message', (message: { type: string; dir?: string; name?: string }) => {
    if (message.type === 'rss') process.send!({ type: 'rss', rss: process.memoryUsage().rss });
    if (message.type === 'profile-start') void startProfile(profiler);
    if (message.type === 'profile-stop') void stopProfile(profiler, message.dir!, message.name!);
    if (message.type === 'stop') {
      void (async () => {
        for (const s of running) s.server.closeAllConnections();
        await Promise.all(running.map((s) => s.stop()));
        await opened.close();
        // The bench's databases go with it (the server may be shared).
        for (const name of created) await dropDatabase(server.url, name);
        await server.stop();
        process.exit(0);
      })();
    }
  });
}

let profiledFrom = { at: 0n, cpu: process.cpuUsage() };

async function startProfile(profiler: Session): Promise<void> {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
  profiledFrom = { at: process.hrtime.bigint(), cpu: process.cpuUsage() };
  process.send!({ type: 'profiling' });
}

async function stopProfile(profiler: Session, dir: string, name: string): Promise<void> {
  const { profile } = await profiler.post('Profiler.stop');
  const cpu = process.cpuUsage(profiledFrom.cpu);
  const wallUs = Number(process.hrtime.bigint() - profiledFrom.at) / 1_000;
  profiler.disconnect();
  const file = path.join(dir, `noisy-platform-${name}-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  process.send!({ type: 'profiled', file, user: cpu.user / wallUs, system: cpu.system / wallUs });
}

main().catch((error) => {
  process.stderr.write(`noisy platform: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
