import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';

/** Settings of the console; the only place that reads its environment. */
export interface ConsoleConfig {
  /** `open`: anyone may sign up; `invite`: only an invited address or an operator. */
  signup: 'open' | 'invite';
  /** The Authentication service's base URL, `/v1` included (the console signs its members in there). */
  authUrl: string;
  /** Where the web console is served: invitation links point at `<consoleUrl>/accept-invitation?token=`. */
  consoleUrl: string;
  invitationTtlMs: number;
  memberTokenTtlSeconds: number;
  auditRetentionDays: number;
  /** How often the audit prune runs. */
  auditPruneIntervalMs: number;
  /** Requests per address and minute on sign-in-adjacent endpoints, and invitations per member and hour. */
  signInLimitPerMinute: number;
  invitationLimitPerHour: number;
  /** Base URLs (`/v1` included) of the services the web console passes its calls through to. */
  serviceUrls: Record<PassThroughService, string>;
  /** The console's own API (`/v1` included), where its MCP server asks for member tokens and calls the console's tools. */
  selfUrl: string;
  /** Where the built web console is read from (the image ships it); unset, it is built from source on start. */
  webDir?: string;
  /** Outside production the console shows the e-mails the Mailer kept in its outbox (the dev inbox). */
  devInbox: boolean;
}

/** The six services, reachable through the web console's same-origin pass-through. */
export const PASS_THROUGH_SERVICES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'] as const;
export type PassThroughService = (typeof PASS_THROUGH_SERVICES)[number];
const DEFAULT_PORTS: Record<PassThroughService, number> = {
  auth: 4001,
  billing: 4002,
  cms: 4003,
  llm: 4004,
  mailer: 4005,
  notifications: 4006,
};
const serviceUrlVariable = (service: PassThroughService) => `CONSOLE_${service.toUpperCase()}_URL`;

const envSchema = Joi.object({
  CONSOLE_SIGNUP: Joi.string().valid('open', 'invite').default('open'),
  CONSOLE_CONSOLE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:4000/v1'),
  CONSOLE_AUTH_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:4001/v1'),
  CONSOLE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:4000'),
  CONSOLE_INVITATION_TTL_HOURS: Joi.number()
    .min(0.001)
    .max(24 * 30)
    .default(72),
  CONSOLE_MEMBER_TOKEN_TTL_SECONDS: Joi.number().integer().min(10).max(300).default(300),
  CONSOLE_AUDIT_RETENTION_DAYS: Joi.number().integer().min(1).max(36_500).default(365),
  CONSOLE_AUDIT_PRUNE_INTERVAL_MS: Joi.number().integer().min(1_000).default(3_600_000),
  CONSOLE_SIGNIN_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(20),
  CONSOLE_INVITATION_LIMIT_PER_HOUR: Joi.number().integer().min(1).default(50),
  CONSOLE_WEB_DIR: Joi.string(),
  NODE_ENV: Joi.string().default('development'),
  ...Object.fromEntries(
    PASS_THROUGH_SERVICES.filter((service) => service !== 'auth').map((service) => [
      serviceUrlVariable(service),
      Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default(`http://127.0.0.1:${DEFAULT_PORTS[service]}/v1`),
    ]),
  ),
}).unknown(true);

export function loadConsoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const value = readEnv(envSchema, env, 'console');
  return {
    signup: value.CONSOLE_SIGNUP,
    authUrl: value.CONSOLE_AUTH_URL.replace(/\/+$/, ''),
    consoleUrl: value.CONSOLE_URL.replace(/\/+$/, ''),
    invitationTtlMs: Math.round(value.CONSOLE_INVITATION_TTL_HOURS * 3_600_000),
    memberTokenTtlSeconds: value.CONSOLE_MEMBER_TOKEN_TTL_SECONDS,
    auditRetentionDays: value.CONSOLE_AUDIT_RETENTION_DAYS,
    auditPruneIntervalMs: value.CONSOLE_AUDIT_PRUNE_INTERVAL_MS,
    signInLimitPerMinute: value.CONSOLE_SIGNIN_LIMIT_PER_MINUTE,
    invitationLimitPerHour: value.CONSOLE_INVITATION_LIMIT_PER_HOUR,
    serviceUrls: Object.fromEntries(
      PASS_THROUGH_SERVICES.map((service) => [
        service,
        (service === 'auth' ? value.CONSOLE_AUTH_URL : value[serviceUrlVariable(service)]).replace(/\/+$/, ''),
      ]),
    ) as Record<PassThroughService, string>,
    selfUrl: value.CONSOLE_CONSOLE_URL.replace(/\/+$/, ''),
    webDir: value.CONSOLE_WEB_DIR,
    devInbox: value.NODE_ENV !== 'production',
  };
}
