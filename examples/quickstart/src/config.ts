/** The example's settings: the project's keys and the services' URLs (the `pnpm start` demo by default). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientOptions, ProjectKeys } from '@platform/client';

export interface ExampleConfig {
  keys: ProjectKeys;
  urls: ClientOptions['urls'];
  /** Vendor keys: a step whose vendor has none is skipped (`pnpm start` has no vendors). */
  sendgridApiKey?: string;
  openaiApiKey?: string;
  stripeSecretKey?: string;
}

/** `pnpm start` writes the demo project's keys here on its first start. */
const DEMO_PROJECT_FILE = path.resolve(__dirname, '../../../.data/demo-project.json');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ExampleConfig {
  const file = env.PLATFORM_PROJECT_FILE ?? DEMO_PROJECT_FILE;
  const keys: ProjectKeys = env.PLATFORM_SECRET_KEY
    ? {
        apiKey: env.PLATFORM_API_KEY ?? '',
        secretKey: env.PLATFORM_SECRET_KEY,
        tenantId: env.PLATFORM_TENANT_ID ?? '',
        projectId: env.PLATFORM_PROJECT_ID ?? '',
      }
    : (JSON.parse(readFileSync(file, 'utf8')) as ProjectKeys);
  const urls = Object.fromEntries(
    (['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'] as const)
      .map((service) => [service, env[`${service.toUpperCase()}_URL`]])
      .filter(([, url]) => url),
  );
  return {
    keys: { apiKey: keys.apiKey, secretKey: keys.secretKey, tenantId: keys.tenantId, projectId: keys.projectId },
    urls,
    sendgridApiKey: env.SENDGRID_API_KEY,
    openaiApiKey: env.OPENAI_API_KEY,
    stripeSecretKey: env.STRIPE_SECRET_KEY,
  };
}
