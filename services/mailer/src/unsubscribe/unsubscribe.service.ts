import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, isUuid } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import type { Tenant } from '@platform/tenancy';
import { suppress } from '../suppressions/suppressions.service';
import { findSealedSecret, insertSealedSecret } from './unsubscribe-secrets.repository';
import { readUnsubscribeToken, signUnsubscribeToken, verifyUnsubscribeMac } from './unsubscribe-tokens';

// One-click unsubscribe (RFC 8058): marketing mail carries a link signed with its project's own
// secret; a POST to it puts the address on that project's suppression list for marketing mail.

// Tampered, foreign and malformed links get the same answer: none of them may say which it was.
const refused = () => new AppError('FORBIDDEN', 'This unsubscribe link is not valid');

async function secretOf(db: Knex, box: SecretBox, tenant: Tenant, create: true): Promise<Buffer>;
async function secretOf(db: Knex, box: SecretBox, tenant: Tenant, create: false): Promise<Buffer | undefined>;
async function secretOf(db: Knex, box: SecretBox, tenant: Tenant, create: boolean): Promise<Buffer | undefined> {
  let sealed = await findSealedSecret(db, tenant);
  if (!sealed && create) sealed = await insertSealedSecret(db, tenant, box.encrypt(randomBytes(32).toString('base64')));
  return sealed ? Buffer.from(box.decrypt(sealed), 'base64') : undefined;
}

/**
 * What gives each marketing email of one send its List-Unsubscribe headers: the project's
 * secret is read once per send, not once per recipient.
 */
export async function unsubscribeHeadersSigner(
  db: Knex,
  box: SecretBox,
  publicUrl: string,
  tenant: Tenant,
): Promise<(email: string) => Record<string, string>> {
  const secret = await secretOf(db, box, tenant, true);
  return (email) => {
    const token = signUnsubscribeToken(secret, { ...tenant, email: email.toLowerCase() });
    return {
      'List-Unsubscribe': `<${publicUrl}/v1/unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
  };
}

/** The address a valid link is for; 403 for any other token. */
export async function checkUnsubscribeToken(
  db: Knex,
  box: SecretBox,
  token: string,
): Promise<{ tenant: Tenant; email: string }> {
  const read = readUnsubscribeToken(token);
  if (!read || !isUuid(read.claim.tenantId) || !isUuid(read.claim.projectId)) throw refused();
  const tenant = { tenantId: read.claim.tenantId, projectId: read.claim.projectId };
  const secret = await secretOf(db, box, tenant, false);
  if (!secret || !verifyUnsubscribeMac(secret, read.payload, read.mac)) throw refused();
  return { tenant, email: read.claim.email };
}

export async function unsubscribe(
  db: Knex,
  box: SecretBox,
  token: string,
): Promise<{ unsubscribed: true; email: string }> {
  const { tenant, email } = await checkUnsubscribeToken(db, box, token);
  await suppress(db, tenant, [
    { email, scope: 'marketing', reason: 'unsubscribe', providerEvent: null, providerId: null },
  ]);
  return { unsubscribed: true, email };
}
