import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantOfRow, sharedTable, tenantTable, type Tenant } from '@platform/db';
import { isUuid } from '@platform/tenancy';

export interface OidcFlowRow {
  id: string;
  tenant_id: string;
  project_id: string;
  provider_id: string;
  state_hash: string;
  nonce: string;
  code_verifier: string;
  redirect_to: string;
  app_code_challenge: string;
  link_user_id: string | null;
  expires_at: Date;
  used_at: Date | null;
}

export type NewFlow = Omit<OidcFlowRow, 'id' | 'tenant_id' | 'project_id' | 'used_at'>;

export async function insertFlow(db: Knex, tenant: Tenant, flow: NewFlow): Promise<string> {
  const id = randomUUID();
  await tenantTable(db, tenant, 'oidc_flows').insert({ id, ...tenantColumns(tenant), ...flow });
  return id;
}

/**
 * The flow a provider's callback belongs to, by the browser's flow cookie or by the state's
 * hash: the callback comes without keys, so the flow names its project (deliberately unscoped,
 * like the lookup of an e-mailed token). Locked for the rest of the transaction.
 */
export async function findFlow(
  trx: Knex.Transaction,
  by: { id: string } | { stateHash: string },
): Promise<{ flow: OidcFlowRow; owner: Tenant } | null> {
  if ('id' in by && !isUuid(by.id)) return null;
  const where = 'id' in by ? { id: by.id } : { state_hash: by.stateHash };
  const flow = (await sharedTable(trx, 'oidc_flows').where(where).forUpdate().first()) as OidcFlowRow | undefined;
  return flow ? { flow, owner: tenantOfRow(flow) } : null;
}

export async function markFlowUsed(trx: Knex.Transaction, owner: Tenant, id: string): Promise<void> {
  await tenantTable(trx, owner, 'oidc_flows').where({ id }).update({ used_at: trx.fn.now() });
}

export interface AuthorizationCodeRow {
  id: string;
  user_id: string;
  code_challenge: string;
  provider: string;
  /** `sign_up` (the account was created by it), `sign_in` or `link`. */
  flow: 'sign_up' | 'sign_in' | 'link';
  expires_at: Date;
  used_at: Date | null;
  /** The session its exchange started. */
  session_id: string | null;
}

export async function insertAuthorizationCode(
  db: Knex,
  owner: Tenant,
  code: Omit<AuthorizationCodeRow, 'id' | 'used_at' | 'session_id'> & { code_hash: string },
): Promise<void> {
  await tenantTable(db, owner, 'authorization_codes').insert({ id: randomUUID(), ...tenantColumns(owner), ...code });
}

/** The code with this hash in the project, locked so that a second exchange waits and then fails. */
export async function findAuthorizationCode(
  trx: Knex.Transaction,
  tenant: Tenant,
  codeHash: string,
): Promise<AuthorizationCodeRow | null> {
  const row = await tenantTable(trx, tenant, 'authorization_codes')
    .where({ code_hash: codeHash })
    .forUpdate()
    .first('id', 'user_id', 'code_challenge', 'provider', 'flow', 'expires_at', 'used_at', 'session_id');
  return (row as AuthorizationCodeRow | undefined) ?? null;
}

export async function markCodeUsed(trx: Knex.Transaction, tenant: Tenant, id: string): Promise<void> {
  await tenantTable(trx, tenant, 'authorization_codes').where({ id }).update({ used_at: trx.fn.now() });
}

export async function markCodeReplayed(trx: Knex.Transaction, tenant: Tenant, id: string): Promise<void> {
  await tenantTable(trx, tenant, 'authorization_codes').where({ id }).update({ replayed_at: trx.fn.now() });
}

/** Records the session the code's exchange started; false when the code was replayed meanwhile. */
export async function recordCodeSession(
  trx: Knex.Transaction,
  tenant: Tenant,
  id: string,
  sessionId: string,
): Promise<boolean> {
  const [row] = (await tenantTable(trx, tenant, 'authorization_codes')
    .where({ id })
    .update({ session_id: sessionId })
    .returning('replayed_at')) as { replayed_at: Date | null }[];
  return Boolean(row) && !row.replayed_at;
}
