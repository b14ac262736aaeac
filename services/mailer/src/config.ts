import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';
import type { RenderBudget } from './templates/template-budget';

/** Mailer-only settings; the only place this service reads process.env. */
export interface MailerConfig {
  /** Sender used when neither the request nor the provider config names one. */
  defaultFrom: string;
  /** How many compiled templates stay in memory (on each render thread). */
  templateCacheSize: number;
  /** Budgets of tenant template checks and renderings. */
  renderBudget: RenderBudget;
  /** Timeout of one vendor call. */
  vendorTimeoutMs: number;
  /** Vendor endpoints (stand-ins in tests and staging); undefined means the vendor's public one. */
  vendors: { sendgridApiBase?: string; mailgunApiBase?: string };
  /** How far a signed webhook timestamp may be from now, either way, before the request is refused as a replay. */
  webhookToleranceSeconds: number;
  /** Base URL where recipients reach this service (the unsubscribe links point here). */
  publicUrl: string;
  /** Consecutive provider failures after which a provider is skipped for the cool-down. */
  failoverFailureThreshold: number;
  /** How long a provider that keeps failing is skipped before it is tried again. */
  failoverCooldownMs: number;
  /** Most recipients one send may name. */
  maxRecipients: number;
  /** Sends of one project in flight per replica before 429. */
  sendsPerProject: number;
  /** Sends of all projects in flight on one replica: below the database pool (10), so sends never hold all of it. */
  sendsTotal: number;
}

const schema = Joi.object({
  MAILER_DEFAULT_FROM: Joi.string()
    .email({ tlds: { allow: false } })
    .default('no-reply@example.com'),
  MAILER_TEMPLATE_CACHE_SIZE: Joi.number().integer().min(1).default(1000),
  MAILER_RENDER_BUDGET_MS: Joi.number().integer().min(10).default(500),
  MAILER_RENDER_MAX_OUTPUT_CHARS: Joi.number().integer().min(1000).default(2_000_000),
  MAILER_RENDER_MEMORY_MB: Joi.number().integer().min(16).default(64),
  MAILER_RENDER_THREADS: Joi.number().integer().min(1).max(16).default(2),
  MAILER_RENDER_MAX_WAITING: Joi.number().integer().min(1).default(10),
  MAILER_RENDER_THREADS_PER_PROJECT: Joi.number().integer().min(1).max(16).default(1),
  MAILER_RENDER_MAX_OVERRUNS: Joi.number().integer().min(1).default(3),
  MAILER_RENDER_PROJECT_MS_PER_SECOND: Joi.number().integer().min(1).max(16_000).default(250),
  MAILER_VENDOR_TIMEOUT_MS: Joi.number().integer().min(100).default(15_000),
  SENDGRID_API_BASE: Joi.string().uri(),
  MAILGUN_API_BASE: Joi.string().uri(),
  MAILER_WEBHOOK_TOLERANCE_SECONDS: Joi.number().integer().min(1).max(86_400).default(300),
  MAILER_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:4005'),
  MAILER_FAILOVER_FAILURES: Joi.number().integer().min(1).max(1000).default(3),
  MAILER_FAILOVER_COOLDOWN_SECONDS: Joi.number().integer().min(1).max(86_400).default(60),
  MAILER_MAX_RECIPIENTS: Joi.number().integer().min(1).max(1000).default(50),
  MAILER_SENDS_PER_PROJECT: Joi.number().integer().min(1).max(1000).default(4),
  MAILER_SENDS_TOTAL: Joi.number().integer().min(1).max(1000).default(8),
}).unknown(true);

export function loadMailerConfig(env: NodeJS.ProcessEnv = process.env): MailerConfig {
  const value = readEnv(schema, env, 'mailer');
  return {
    defaultFrom: value.MAILER_DEFAULT_FROM,
    templateCacheSize: value.MAILER_TEMPLATE_CACHE_SIZE,
    renderBudget: {
      timeMs: value.MAILER_RENDER_BUDGET_MS,
      maxOutputChars: value.MAILER_RENDER_MAX_OUTPUT_CHARS,
      memoryMb: value.MAILER_RENDER_MEMORY_MB,
      threads: value.MAILER_RENDER_THREADS,
      maxWaitingPerProject: value.MAILER_RENDER_MAX_WAITING,
      threadsPerProject: value.MAILER_RENDER_THREADS_PER_PROJECT,
      overrunsPerMinute: value.MAILER_RENDER_MAX_OVERRUNS,
      projectMsPerSecond: value.MAILER_RENDER_PROJECT_MS_PER_SECOND,
      cacheSize: value.MAILER_TEMPLATE_CACHE_SIZE,
    },
    vendorTimeoutMs: value.MAILER_VENDOR_TIMEOUT_MS,
    vendors: { sendgridApiBase: value.SENDGRID_API_BASE, mailgunApiBase: value.MAILGUN_API_BASE },
    webhookToleranceSeconds: value.MAILER_WEBHOOK_TOLERANCE_SECONDS,
    publicUrl: String(value.MAILER_PUBLIC_URL).replace(/\/+$/, ''),
    failoverFailureThreshold: value.MAILER_FAILOVER_FAILURES,
    failoverCooldownMs: value.MAILER_FAILOVER_COOLDOWN_SECONDS * 1000,
    maxRecipients: value.MAILER_MAX_RECIPIENTS,
    sendsPerProject: value.MAILER_SENDS_PER_PROJECT,
    sendsTotal: value.MAILER_SENDS_TOTAL,
  };
}
