import type { Migration } from '@platform/db';

export const addSignInMethods: Migration = {
  name: '0010_sign_in_methods',
  async up(db) {
    // A user may have no password (signed up by a provider or an e-mail code) and, while
    // anonymous, no e-mail either; the unique index still holds for the e-mails there are.
    await db.schema.alterTable('users', (t) => {
      t.text('email').nullable().alter();
      t.text('password_hash').nullable().alter();
      t.timestamp('anonymous_since', { useTz: true });
    });
    // The prune job walks never-converted anonymous users oldest first.
    await db.raw('create index users_anonymous on users (anonymous_since) where anonymous_since is not null');

    // A project's OpenID Connect providers; the client secret is sealed with the platform's SecretBox.
    await db.schema.createTable('oidc_providers', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('name').notNullable();
      t.text('issuer').notNullable();
      t.text('client_id').notNullable();
      t.text('client_secret_sealed');
      t.specificType('scopes', 'text[]').notNullable();
      t.boolean('accept_unverified_emails').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'name']);
    });

    // An authorization sent to a provider and waiting for its callback (10 minutes, single use).
    // The state's hash finds the row (and its project) when the browser comes back.
    await db.schema.createTable('oidc_flows', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('provider_id').notNullable().references('oidc_providers.id').onDelete('CASCADE');
      t.text('state_hash').notNullable().unique();
      t.text('nonce').notNullable();
      t.text('code_verifier').notNullable();
      t.text('redirect_to').notNullable();
      t.text('app_code_challenge').notNullable();
      t.uuid('link_user_id').references('users.id').onDelete('CASCADE');
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['tenant_id', 'project_id', 'expires_at']);
    });

    // The ways a user signs in besides a password: one row per provider account.
    await db.schema.createTable('user_identities', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('provider').notNullable();
      t.text('subject').notNullable();
      t.text('email');
      t.boolean('email_verified').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('last_sign_in_at', { useTz: true });
      t.unique(['tenant_id', 'project_id', 'provider', 'subject']);
      t.index(['tenant_id', 'project_id', 'user_id']);
    });

    // One-time codes the app exchanges at POST /token after a provider's callback (PKCE-bound).
    await db.schema.createTable('authorization_codes', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('code_hash').notNullable();
      t.text('code_challenge').notNullable();
      t.text('provider').notNullable();
      t.text('flow').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.unique(['tenant_id', 'project_id', 'code_hash']);
    });

    // A sign-in link and six-digit code sent by e-mail (10 minutes, single use, hashes only).
    await db.schema.createTable('email_sign_ins', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      // The address the link signs in to (the link names only its own hash); codes are looked up by the hash.
      t.text('email').notNullable();
      t.text('email_hash').notNullable();
      t.text('link_hash').notNullable();
      t.text('code_hash').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'link_hash']);
      t.index(['tenant_id', 'project_id', 'email_hash']);
    });
  },
  async down(db) {
    await db.schema.dropTable('email_sign_ins');
    await db.schema.dropTable('authorization_codes');
    await db.schema.dropTable('user_identities');
    await db.schema.dropTable('oidc_flows');
    await db.schema.dropTable('oidc_providers');
    await db.raw('drop index users_anonymous');
    await db.schema.alterTable('users', (t) => t.dropColumn('anonymous_since'));
  },
};
