import { Router } from 'express';
import { boundedRawBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import type { MailerShared } from './mailer-shared';
import { emailHandlers } from './emails/emails.router';
import { providerHandlers } from './providers/providers.router';
import { suppressionHandlers } from './suppressions/suppressions.router';
import { templateHandlers } from './templates/templates.router';
import { unsubscribeHandlers } from './unsubscribe/unsubscribe.router';
import { webhookHandlers } from './webhooks/webhooks.router';

/** The whole route table of the Mailer service (mounted under /v1). */
export function createRoutes(deps: ServiceDeps, shared: MailerShared): Router {
  const keys = projectKeys(deps);
  const { config, sending } = shared;
  const emails = emailHandlers(deps.db, sending, config.maxRecipients);
  const templates = templateHandlers(deps.db, sending.renderer);
  const providers = providerHandlers(deps.db, sending);
  const webhooks = webhookHandlers(deps.db, deps.secrets, config.webhookToleranceSeconds);
  const suppressions = suppressionHandlers(deps.db);
  const unsubscribe = unsubscribeHandlers(deps.db, deps.secrets);

  const router = Router();
  router.post('/emails/send', keys, emails.send);
  router.get('/emails/logs/:recipient', keys, emails.recipientLogs);
  router.get('/logs', keys, emails.listLogs);
  router.get('/stats', keys, emails.stats);
  router.get('/stats/daily', keys, emails.dailyStats);

  router.post('/templates', keys, templates.create);
  router.get('/templates', keys, templates.list);
  router.get('/templates/:id', keys, templates.get);
  router.put('/templates/:id', keys, templates.update);
  router.delete('/templates/:id', keys, templates.remove);
  router.post('/templates/:id/preview', keys, templates.preview);

  router.get('/suppressions', keys, suppressions.list);
  router.post('/suppressions', keys, suppressions.add);
  router.delete('/suppressions/:email', keys, suppressions.remove);

  router.post('/providers', keys, providers.create);
  router.get('/providers', keys, providers.list);
  router.patch('/providers/:id', keys, providers.update);
  router.post('/providers/:id/test', keys, providers.test);

  // Vendor delivery events: no keys; the vendor's signature is checked against the provider's key,
  // on the bytes as sent, before they are parsed. SendGrid batches events up to 768 KB.
  router.post('/webhooks/:providerId', boundedRawBody('1mb'), webhooks.receive);
  // List-Unsubscribe links: no keys; the token is signed with the project's own secret. The
  // one-click body (RFC 8058) is `List-Unsubscribe=One-Click`: anything much larger is refused.
  router.get('/unsubscribe/:token', unsubscribe.page);
  router.post('/unsubscribe/:token', boundedRawBody('1kb'), unsubscribe.oneClick);
  return router;
}
