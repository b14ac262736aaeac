import type { LegacyServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { subscribeAuthEmails } from './auth-emails/auth-emails.consumer';
import { startIdempotencyPrune } from './emails/idempotency.prune';
import { mailerServices } from './services';

export const mailerService: LegacyServiceDefinition = {
  name: 'mailer',
  defaultPort: 4005,
  migrations,
  createApp,
  async startBackground(deps) {
    await subscribeAuthEmails(deps);
    // The bus owns the subscription and closes it with itself; the prune and the render threads are ours.
    const stopPrune = startIdempotencyPrune(deps.db, deps.logger);
    return async () => {
      await stopPrune();
      await mailerServices(deps).close();
    };
  },
};

export { authEmailHandler, sendAuthEmail, AUTH_EMAIL_QUEUE } from './auth-emails/auth-emails.consumer';
export { TemplateCache, renderSource } from './templates/template-engine';
