/**
 * `pnpm start`: all six services and the console (their control plane, port 4000) in one process. With no DATABASE_URL / AMQP_URL this uses
 * the embedded defaults (a real PostgreSQL under .data/postgres, the in-process event bus),
 * creates a demo project on first start and prints its keys.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProject, type CreatedProject } from '@platform/directory';
import {
  openInfrastructure,
  onShutdownSignal,
  startService,
  type RunningService,
  ConfigError,
  loadPlatformConfig,
} from '@platform/runtime';
import { createLogger } from '@platform/http';
import { startTelemetry, stopTelemetry } from '@platform/telemetry';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';
import { consoleService } from '@platform/console';

const SERVICES = [
  authService,
  billingService,
  cmsService,
  llmService,
  mailerService,
  notificationsService,
  consoleService,
];

async function demoProject(dataDir: string, create: () => Promise<CreatedProject>): Promise<CreatedProject> {
  const file = path.join(dataDir, 'demo-project.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as CreatedProject;
  const project = await create();
  writeFileSync(file, JSON.stringify(project, null, 2), { mode: 0o600 });
  return project;
}

function banner(project: CreatedProject, running: RunningService[]): string {
  const headers = `-H 'x-api-key: ${project.apiKey}' -H 'x-secret-key: ${project.secretKey}' -H 'x-tenant-id: ${project.tenantId}' -H 'x-project-id: ${project.projectId}'`;
  const url = (name: string) => `http://localhost:${running.find((s) => s.name === name)?.port}`;
  const json = `-H 'content-type: application/json'`;
  return [
    '',
    'Platform ready. Services:',
    ...running
      .filter((s) => s.name !== 'console')
      .map((s) => `  ${s.name.padEnd(14)} http://localhost:${s.port}/v1   (docs: /docs)`),
    '',
    `Console: ${url('console')}   (control plane API: ${url('console')}/v1, docs: ${url('console')}/docs)`,
    `MCP server for coding agents: ${url('console')}/v1/mcp   (docs/mcp.md)`,
    '',
    'Demo project keys:',
    `  x-api-key:     ${project.apiKey}`,
    `  x-secret-key:  ${project.secretKey}`,
    `  x-tenant-id:   ${project.tenantId}`,
    `  x-project-id:  ${project.projectId}`,
    `  webhookSecret: ${project.webhookSecret}`,
    '',
    'Try:',
    `  curl -X POST ${url('auth')}/v1/register ${headers} ${json} -d '{"email":"ada@example.com","password":"correct horse battery"}'`,
    `  curl ${url('billing')}/v1/pay/config ${headers}`,
    `  curl -X POST ${url('cms')}/v1/content ${headers} ${json} -d '{"type":"blog","title":"Hello","content":"First post"}'`,
    `  curl ${url('llm')}/v1/batch ${headers}`,
    `  curl ${url('mailer')}/v1/templates ${headers}`,
    `  curl -X POST ${url('notifications')}/v1/notifications ${headers} ${json} -d '{"title":"Welcome","message":"Hi there"}'`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  // One process: its spans share the service name `platform`; each request span says which service answered.
  startTelemetry({ service: 'platform' });
  const started = Date.now();
  const config = loadPlatformConfig();
  const logger = createLogger('platform', config.logLevel);
  const infra = await openInfrastructure(config, logger);
  // START_PORT_OFFSET shifts all six ports (e.g. to run a second copy beside the first).
  const offset = Number(process.env.START_PORT_OFFSET ?? 0);
  // The console signs its members in at the Authentication service started beside it, and its
  // web pages reach the six services through it.
  for (const service of SERVICES.filter((s) => s !== consoleService))
    process.env[`CONSOLE_${service.name.toUpperCase()}_URL`] ??= `http://127.0.0.1:${service.defaultPort + offset}/v1`;
  process.env.CONSOLE_URL ??= `http://localhost:${consoleService.defaultPort + offset}`;
  const running = await Promise.all(
    SERVICES.map((service) =>
      startService(service, infra, createLogger(service.name, config.logLevel), service.defaultPort + offset),
    ),
  );
  const project = await demoProject(config.dataDir, () =>
    createProject(infra.platformDb, infra.secrets, { tenant: 'demo', project: 'demo' }),
  );
  process.stdout.write(banner(project, running));
  logger.info('platform started', { ms: Date.now() - started });
  onShutdownSignal(logger, async () => {
    await Promise.all(running.map((service) => service.stop()));
    await infra.close();
    await stopTelemetry();
  });
}

main().catch((error) => {
  // Configuration and first-run problems are one plain sentence; anything else keeps its stack.
  const plain = error instanceof ConfigError || error?.name === 'EmbeddedPostgresError';
  process.stderr.write(`${plain ? error.message : String(error?.stack ?? error)}\n`);
  process.exit(1);
});
