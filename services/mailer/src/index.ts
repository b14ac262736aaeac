import {
  projectErasureJob,
  userErasureJob,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
} from '@platform/runtime';
import { migrations } from '../migrations';
import { subscribeAuthEmails } from './auth-emails/auth-emails.consumer';
import { loadMailerConfig } from './config';
import type { MailerShared } from './mailer-shared';
import type { SendingDeps } from './emails/emails.service';
import { ProviderCooldowns } from './emails/failover';
import { startIdempotencyPrune } from './emails/idempotency.prune';
import { eraseUser } from './emails/user-erasure';
import { ProjectSendSlots } from './emails/send-slots';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes } from './routes';
import { TemplateRenderer } from './templates/template-budget';

/** The composition root: config, the template render threads and what sending shares, the route table and the jobs. */
export function buildMailer(deps: ServiceDeps): ServiceParts<MailerShared> {
  const config = loadMailerConfig(deps.env);
  const renderer = new TemplateRenderer(config.renderBudget);
  const sending: SendingDeps = {
    renderer,
    routeSettings: { secrets: deps.secrets, production: deps.config.production, config },
    publicUrl: config.publicUrl,
    // Shared by the API and the auth-email consumer: both learn which providers keep failing.
    cooldowns: new ProviderCooldowns(config.failoverFailureThreshold, config.failoverCooldownMs),
    slots: new ProjectSendSlots(config.sendsPerProject, config.sendsTotal),
    logger: deps.logger,
    defaultFrom: config.defaultFrom,
  };
  const shared: MailerShared = { config, sending };
  return {
    routes: createRoutes(deps, shared),
    openapi,
    shared,
    jobs: [
      {
        name: 'auth-emails',
        async start() {
          await subscribeAuthEmails(deps, sending);
          // The bus owns the subscription and closes it with itself.
          return async () => undefined;
        },
      },
      { name: 'idempotency-prune', start: async () => startIdempotencyPrune(deps.db, deps.logger) },
      projectErasureJob(deps, 'mailer', ERASURE_TABLES),
      userErasureJob(deps, 'mailer', eraseUser),
    ],
    // The render threads serve HTTP and the consumer alike: released once both have stopped.
    close: () => renderer.close(),
  };
}

export const mailerService: ServiceDefinition<MailerShared> = {
  name: 'mailer',
  defaultPort: 4005,
  migrations,
  build: buildMailer,
};

export { authEmailHandler, sendAuthEmail, AUTH_EMAIL_QUEUE } from './auth-emails/auth-emails.consumer';
export { TemplateCache, renderSource } from './templates/template-engine';
