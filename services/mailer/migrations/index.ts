import type { Migration } from '@platform/db';

/** The Mailer service's schema changes, oldest first. */
export const migrations: Migration[] = [
  {
    name: '0001_mail_providers',
    async up(db) {
      await db.schema.createTable('mail_providers', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.text('name').notNullable();
        t.text('type').notNullable();
        // The whole vendor config (apiKey, domain, signing keys) sealed with the master key.
        t.text('config_enc').notNullable();
        t.boolean('is_default').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['project_id', 'created_at']);
      });
      // At most one default provider per project.
      await db.raw('create unique index mail_providers_one_default on mail_providers (project_id) where is_default');
    },
    async down(db) {
      await db.schema.dropTable('mail_providers');
    },
  },
  {
    name: '0002_email_templates',
    async up(db) {
      await db.schema.createTable('email_templates', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.text('name').notNullable();
        t.text('template_key');
        t.text('subject').notNullable();
        t.text('html').notNullable();
        t.text('text');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.unique(['project_id', 'template_key']);
        t.index(['project_id', 'created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('email_templates');
    },
  },
  {
    name: '0003_email_logs',
    async up(db) {
      await db.schema.createTable('email_logs', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.uuid('provider_id');
        /** mailgun, sendgrid or outbox */
        t.text('provider').notNullable();
        /** api, provider-test, auth.verify-email, auth.reset-password */
        t.text('source').notNullable();
        t.text('to_email').notNullable();
        t.text('from_email').notNullable();
        t.text('subject').notNullable();
        // Kept only for the outbox transport, where the stored copy is the delivery.
        t.text('html');
        t.text('text');
        t.uuid('template_id');
        t.text('status').notNullable();
        t.text('vendor_message_id');
        t.text('error');
        // The event an auth email was sent for: a second delivery of it cannot add a row.
        t.uuid('event_id').unique();
        t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['project_id', 'sent_at']);
        t.index(['vendor_message_id']);
      });
      await db.raw('create index email_logs_recipient_idx on email_logs (project_id, lower(to_email), sent_at desc)');
    },
    async down(db) {
      await db.schema.dropTable('email_logs');
    },
  },
  {
    name: '0004_mail_webhook_receipts',
    async up(db) {
      // Mailgun tokens and SendGrid event ids already processed per provider, kept until their
      // window has passed, so a replayed webhook is refused on every replica and after restarts.
      await db.schema.createTable('mail_webhook_receipts', (t) => {
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.uuid('provider_id').notNullable();
        t.text('receipt_id').notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['provider_id', 'receipt_id']);
        t.index(['provider_id', 'expires_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('mail_webhook_receipts');
    },
  },
  {
    name: '0005_mail_suppressions',
    async up(db) {
      // Addresses a project must not mail: `all` (bounce, complaint, by hand) or only its `marketing` mail.
      await db.schema.createTable('mail_suppressions', (t) => {
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        /** Lowercased: addresses compare case-insensitively. */
        t.text('email').notNullable();
        t.text('scope').notNullable();
        /** bounce, complaint, unsubscribe or manual */
        t.text('reason').notNullable();
        /** The vendor event that caused it (e.g. `mailgun:complained`), null when added by hand or one-click. */
        t.text('provider_event');
        t.uuid('provider_id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['project_id', 'email']);
        t.index(['project_id', 'created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('mail_suppressions');
    },
  },
  {
    name: '0006_provider_priority',
    async up(db) {
      // Failover order: lower first; ties go to the default, then the oldest.
      await db.schema.alterTable('mail_providers', (t) => {
        t.integer('priority').notNullable().defaultTo(100);
      });
    },
    async down(db) {
      await db.schema.alterTable('mail_providers', (t) => {
        t.dropColumn('priority');
      });
    },
  },
  {
    name: '0007_send_idempotency_keys',
    async up(db) {
      // One row per Idempotency-Key and project: the unique key is what makes concurrent duplicates wait and send once.
      await db.schema.createTable('mail_idempotency_keys', (t) => {
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.text('key').notNullable();
        t.text('request_hash').notNullable();
        t.jsonb('response').notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['project_id', 'key']);
        t.index(['expires_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('mail_idempotency_keys');
    },
  },
  {
    name: '0008_unsubscribe_secrets',
    async up(db) {
      // Per project, the HMAC key of its unsubscribe links, sealed with the master key.
      await db.schema.createTable('mail_unsubscribe_secrets', (t) => {
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').primary();
        t.text('secret_enc').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
    async down(db) {
      await db.schema.dropTable('mail_unsubscribe_secrets');
    },
  },
  {
    name: '0009_locale_variants_and_log_category',
    async up(db) {
      await db.schema.alterTable('email_templates', (t) => {
        // {"pt-BR": {subject, html, text}, ...}; the template's own fields are the default.
        t.jsonb('variants').notNullable().defaultTo('{}');
      });
      await db.schema.alterTable('email_logs', (t) => {
        /** transactional or marketing */
        t.text('category').notNullable().defaultTo('transactional');
        /** Why a `suppressed` row was not sent (bounce, complaint, unsubscribe, manual). */
        t.text('suppression_reason');
      });
    },
    async down(db) {
      await db.schema.alterTable('email_templates', (t) => {
        t.dropColumn('variants');
      });
      await db.schema.alterTable('email_logs', (t) => {
        t.dropColumn('category');
        t.dropColumn('suppression_reason');
      });
    },
  },
];
