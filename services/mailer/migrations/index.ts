import type { Migration } from '@platform/db';
import { m0001MailProviders } from './0001-mail-providers';
import { m0002EmailTemplates } from './0002-email-templates';
import { m0003EmailLogs } from './0003-email-logs';
import { m0004MailWebhookReceipts } from './0004-mail-webhook-receipts';
import { m0005MailSuppressions } from './0005-mail-suppressions';
import { m0006ProviderPriority } from './0006-provider-priority';
import { m0007SendIdempotencyKeys } from './0007-send-idempotency-keys';
import { m0008UnsubscribeSecrets } from './0008-unsubscribe-secrets';
import { m0009LocaleVariantsAndLogCategory } from './0009-locale-variants-and-log-category';
import { m0010EmailLogAttempts } from './0010-email-log-attempts';

/** The Mailer service's schema changes, oldest first; never reorder or rename an applied one (databases record each `name`). */
export const migrations: Migration[] = [
  m0001MailProviders,
  m0002EmailTemplates,
  m0003EmailLogs,
  m0004MailWebhookReceipts,
  m0005MailSuppressions,
  m0006ProviderPriority,
  m0007SendIdempotencyKeys,
  m0008UnsubscribeSecrets,
  m0009LocaleVariantsAndLogCategory,
  m0010EmailLogAttempts,
];
