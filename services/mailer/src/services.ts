import type { ServiceDeps } from '@platform/runtime';
import { loadMailerConfig, type MailerConfig } from './config';
import { EmailsService } from './emails/emails.service';
import { ProviderCooldowns } from './emails/failover';
import { LogsService } from './emails/logs.service';
import { ProjectSendSlots } from './emails/send-slots';
import { ProvidersService } from './providers/providers.service';
import { SuppressionsService } from './suppressions/suppressions.service';
import { TemplateRenderer } from './templates/template-budget';
import { TemplatesService } from './templates/templates.service';
import { UnsubscribeService } from './unsubscribe/unsubscribe.service';
import { WebhooksService } from './webhooks/webhooks.service';

export interface MailerServices {
  config: MailerConfig;
  templates: TemplatesService;
  providers: ProvidersService;
  emails: EmailsService;
  logs: LogsService;
  webhooks: WebhooksService;
  suppressions: SuppressionsService;
  unsubscribe: UnsubscribeService;
  /** Stops the template render threads. */
  close(): Promise<void>;
}

const built = new WeakMap<ServiceDeps, MailerServices>();

/** The Mailer's services for one set of deps; the HTTP app and the consumers share them (and the template render threads). */
export function mailerServices(deps: ServiceDeps): MailerServices {
  const existing = built.get(deps);
  if (existing) return existing;
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
  const services = {
    config,
    templates,
    providers,
    emails,
    logs: new LogsService(deps.db),
    webhooks: new WebhooksService(deps.db, providers, config),
    suppressions,
    unsubscribe,
    close: () => renderer.close(),
  };
  built.set(deps, services);
  return services;
}
