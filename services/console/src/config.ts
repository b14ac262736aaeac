import { Joi } from '@platform/tenancy';
import { ConfigError } from '@platform/runtime';

/** Settings of the console; the only place that reads its environment. */
export interface ConsoleConfig {
  /** `open`: anyone may sign up; `invite`: only an invited address or an operator. */
  signup: 'open' | 'invite';
  /** The Authentication service's base URL, `/v1` included (the console signs its members in there). */
  authUrl: string;
  /** Where the MCP server reaches the services' public APIs (`/v1` included), the console's own too. */
  serviceUrls: Record<'auth' | 'billing' | 'cms' | 'llm' | 'mailer' | 'notifications' | 'console', string>;
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
}

/** The MCP server's way to each service: `CONSOLE_<SERVICE>_URL`, by default the port `pnpm start` gives it. */
const SERVICE_PORTS = {
  billing: 4002,
  cms: 4003,
  llm: 4004,
  mailer: 4005,
  notifications: 4006,
  console: 4000,
} as const;
const urlVariable = (service: string) => `CONSOLE_${service.toUpperCase()}_URL`;

function serviceUrlVariables(): Record<string, Joi.StringSchema> {
  return Object.fromEntries(
    Object.entries(SERVICE_PORTS).map(([service, port]) => [
      urlVariable(service),
      Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default(`http://127.0.0.1:${port}/v1`),
    ]),
  );
}

const envSchema = Joi.object({
  CONSOLE_SIGNUP: Joi.string().valid('open', 'invite').default('open'),
  CONSOLE_AUTH_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:4001/v1'),
  ...serviceUrlVariables(),
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
}).unknown(true);

export function loadConsoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const { value, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid console configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return {
    signup: value.CONSOLE_SIGNUP,
    authUrl: value.CONSOLE_AUTH_URL.replace(/\/+$/, ''),
    serviceUrls: {
      auth: value.CONSOLE_AUTH_URL.replace(/\/+$/, ''),
      ...(Object.fromEntries(
        Object.keys(SERVICE_PORTS).map((service) => [service, value[urlVariable(service)].replace(/\/+$/, '')]),
      ) as Record<keyof typeof SERVICE_PORTS, string>),
    },
    consoleUrl: value.CONSOLE_URL.replace(/\/+$/, ''),
    invitationTtlMs: Math.round(value.CONSOLE_INVITATION_TTL_HOURS * 3_600_000),
    memberTokenTtlSeconds: value.CONSOLE_MEMBER_TOKEN_TTL_SECONDS,
    auditRetentionDays: value.CONSOLE_AUDIT_RETENTION_DAYS,
    auditPruneIntervalMs: value.CONSOLE_AUDIT_PRUNE_INTERVAL_MS,
    signInLimitPerMinute: value.CONSOLE_SIGNIN_LIMIT_PER_MINUTE,
    invitationLimitPerHour: value.CONSOLE_INVITATION_LIMIT_PER_HOUR,
  };
}
