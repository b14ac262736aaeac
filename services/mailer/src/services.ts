import type { ServiceDeps } from '@platform/runtime';
import { loadMailerConfig } from './config';
import { EmailsService } from './emails/emails.service';
import { LogsService } from './emails/logs.service';
import { ProvidersService } from './providers/providers.service';
import { TemplateRenderer } from './templates/template-budget';
import { TemplatesService } from './templates/templates.service';
import { WebhooksService } from './webhooks/webhooks.service';

export interface MailerServices {
  templates: TemplatesService;
  providers: ProvidersService;
  emails: EmailsService;
  logs: LogsService;
  webhooks: WebhooksService;
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
  const emails = new EmailsService(deps.db, providers, templates, deps.logger);
  const services = {
    templates,
    providers,
    emails,
    logs: new LogsService(deps.db),
    webhooks: new WebhooksService(deps.db, providers, config),
    close: () => renderer.close(),
  };
  built.set(deps, services);
  return services;
}
