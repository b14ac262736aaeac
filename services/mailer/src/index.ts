import type { BuiltServiceDefinition, ServiceDeps, ServiceParts } from '@platform/runtime';
import { migrations } from '../migrations';
import { subscribeAuthEmails } from './auth-emails/auth-emails.consumer';
import { loadMailerConfig, type MailerConfig } from './config';
import { EmailsService } from './emails/emails.service';
import { ProviderCooldowns } from './emails/failover';
import { startIdempotencyPrune } from './emails/idempotency.prune';
import { LogsService } from './emails/logs.service';
import { ProjectSendSlots } from './emails/send-slots';
import { openapi } from './openapi';
import { ProvidersService } from './providers/providers.service';
import { createRoutes } from './routes';
import { SuppressionsService } from './suppressions/suppressions.service';
import { TemplateRenderer } from './templates/template-budget';
import { TemplatesService } from './templates/templates.service';
import { UnsubscribeService } from './unsubscribe/unsubscribe.service';
import { WebhooksService } from './webhooks/webhooks.service';

/** What the HTTP side and the auth-email consumer share, built once in `build`. */
export interface MailerShared {
  config: MailerConfig;
  templates: TemplatesService;
  providers: ProvidersService;
  emails: EmailsService;
  logs: LogsService;
  webhooks: WebhooksService;
  suppressions: SuppressionsService;
  unsubscribe: UnsubscribeService;
}

/** The composition root: config, the template render threads, the services, the route table and the jobs. */
export function buildMailer(deps: ServiceDeps): ServiceParts<MailerShared> {
  const config = loadMailerConfig(deps.env);
  const renderer = new TemplateRenderer(config.renderBudget);
  const templates = new TemplatesService(deps.db, renderer);
  const providers = new ProvidersService(deps.db, deps.secrets, deps.config, config);
  const suppressions = new SuppressionsService(deps.db);
  const unsubscribe = new UnsubscribeService(deps.db, deps.secrets, config.publicUrl);
  const emails = new EmailsService(deps.db, {
    providers,
    templates,
    suppressions,
    unsubscribe,
    // Shared by the API and the auth-email consumer: both learn which providers keep failing.
    cooldowns: new ProviderCooldowns(config.failoverFailureThreshold, config.failoverCooldownMs),
    slots: new ProjectSendSlots(config.sendsPerProject, config.sendsTotal),
    logger: deps.logger,
    defaultFrom: config.defaultFrom,
  });
  const shared: MailerShared = {
    config,
    templates,
    providers,
    emails,
    logs: new LogsService(deps.db),
    webhooks: new WebhooksService(deps.db, providers, config),
    suppressions,
    unsubscribe,
  };
  return {
    routes: createRoutes(deps, shared),
    openapi,
    shared,
    jobs: [
      {
        name: 'auth-emails',
        async start() {
          await subscribeAuthEmails(deps, shared);
          // The bus owns the subscription and closes it with itself.
          return async () => undefined;
        },
      },
      { name: 'idempotency-prune', start: async () => startIdempotencyPrune(deps.db, deps.logger) },
    ],
    // The render threads serve HTTP and the consumer alike: released once both have stopped.
    close: () => renderer.close(),
  };
}

export const mailerService: BuiltServiceDefinition<MailerShared> = {
  name: 'mailer',
  defaultPort: 4005,
  migrations,
  build: buildMailer,
};

export { authEmailHandler, sendAuthEmail, AUTH_EMAIL_QUEUE } from './auth-emails/auth-emails.consumer';
export { TemplateCache, renderSource } from './templates/template-engine';
