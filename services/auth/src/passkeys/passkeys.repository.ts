import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import { PASSKEY_COLUMNS, type CeremonyKind, type PasskeyChallengeRow, type PasskeyRow } from './passkeys.model';

const passkeys = (db: Knex, tenant: Tenant) => tenantTable<PasskeyRow>(db, tenant, 'passkeys');
const challenges = (db: Knex, tenant: Tenant) => tenantTable<PasskeyChallengeRow>(db, tenant, 'passkey_challenges');

export async function listPasskeys(db: Knex, tenant: Tenant, userId: string): Promise<PasskeyRow[]> {
  return (await passkeys(db, tenant)
    .where({ user_id: userId })
    .orderBy('created_at')
    .select(...PASSKEY_COLUMNS)) as PasskeyRow[];
}

export async function findPasskey(db: Knex, tenant: Tenant, userId: string, id: string): Promise<PasskeyRow | null> {
  if (!isUuid(id)) return null;
  const row = await passkeys(db, tenant)
    .where({ id, user_id: userId })
    .first(...PASSKEY_COLUMNS);
  return (row as PasskeyRow | undefined) ?? null;
}

export async function findByCredentialId(db: Knex, tenant: Tenant, credentialId: string): Promise<PasskeyRow | null> {
  const row = await passkeys(db, tenant)
    .where({ credential_id: credentialId })
    .first(...PASSKEY_COLUMNS);
  return (row as PasskeyRow | undefined) ?? null;
}

export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
}

/** Stores a registered credential; null when the project already has this credential id. */
export async function insertPasskey(db: Knex, tenant: Tenant, passkey: NewPasskey): Promise<PasskeyRow | null> {
  const [row] = await passkeys(db, tenant)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: Buffer.from(passkey.publicKey),
      sign_count: String(passkey.signCount),
      transports: passkey.transports,
      device_type: passkey.deviceType,
      backed_up: passkey.backedUp,
      name: passkey.name,
    })
    .onConflict(['tenant_id', 'project_id', 'credential_id'])
    .ignore()
    .returning([...PASSKEY_COLUMNS]);
  return (row as PasskeyRow | undefined) ?? null;
}

/** Records a sign-in's counter and backup state (they may change over a credential's life). */
export async function markUsed(
  db: Knex,
  tenant: Tenant,
  id: string,
  update: { signCount: number; backedUp: boolean; deviceType: string },
): Promise<void> {
  await passkeys(db, tenant)
    .where({ id })
    .update({
      sign_count: String(update.signCount),
      backed_up: update.backedUp,
      device_type: update.deviceType,
      last_used_at: db.fn.now(),
    });
}

export async function renamePasskey(
  db: Knex,
  tenant: Tenant,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await passkeys(db, tenant)
    .where({ id, user_id: userId })
    .update({ name })
    .returning([...PASSKEY_COLUMNS]);
  return (row as PasskeyRow | undefined) ?? null;
}

export async function deletePasskey(db: Knex, tenant: Tenant, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await passkeys(db, tenant).where({ id, user_id: userId }).delete()) > 0;
}

export async function insertChallenge(
  db: Knex,
  tenant: Tenant,
  challenge: { kind: CeremonyKind; userId: string | null; challenge: string; expiresAt: Date },
): Promise<string> {
  const id = randomUUID();
  // Expired ceremonies of the project go as new ones start, so the table stays small.
  await challenges(db, tenant).where('expires_at', '<', db.fn.now()).delete();
  await challenges(db, tenant).insert({
    id,
    ...tenantColumns(tenant),
    kind: challenge.kind,
    user_id: challenge.userId,
    challenge: challenge.challenge,
    expires_at: challenge.expiresAt,
  });
  return id;
}

/** Takes a ceremony's challenge out (single use): the row is deleted whether or not it is still good. */
export async function takeChallenge(
  db: Knex,
  tenant: Tenant,
  id: string,
  kind: CeremonyKind,
): Promise<PasskeyChallengeRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await challenges(db, tenant)
    .where({ id, kind })
    .delete()
    .returning(['id', 'user_id', 'kind', 'challenge', 'expires_at']);
  const taken = (row as PasskeyChallengeRow | undefined) ?? null;
  return taken && taken.expires_at.getTime() > Date.now() ? taken : null;
}
