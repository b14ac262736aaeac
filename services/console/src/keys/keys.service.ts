import type { Knex } from 'knex';
import { createProjectKey, listProjectKeys, revokeProjectKey, rotateProjectKey } from '@platform/directory';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { requireProject } from '../projects/projects.service';
import { toKey, type IssuedKeyView, type KeyView } from './keys.mapper';

export interface KeyDeps {
  db: Knex;
  platformDb: Knex;
  /** How long a service may still accept a revoked key (its key cache TTL). */
  keyCacheTtlMs: number;
}

export async function listKeys(deps: KeyDeps, tenantId: string, projectId: string): Promise<KeyView[]> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const now = new Date();
  return (await listProjectKeys(deps.platformDb, projectId)).map((k) => toKey(k, now));
}

/** A new named pair; its secret is in this response only (the directory keeps its hash). */
export async function createKey(
  deps: KeyDeps,
  context: AuditContext,
  tenantId: string,
  projectId: string,
  name: string,
): Promise<IssuedKeyView> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const key = await createProjectKey(deps.platformDb, projectId, { name, createdBy: context.actorEmail });
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'key.create',
    target: key.id,
    outcome: 'success',
    details: { name, publicKey: key.publicKey },
  });
  return { ...toKey(key), secretKey: key.secretKey };
}

export async function rotateKey(
  deps: KeyDeps,
  context: AuditContext,
  tenantId: string,
  projectId: string,
  keyId: string,
  oldKeyExpiresInSeconds?: number,
): Promise<{ key: IssuedKeyView; previous: KeyView }> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const oldExpiresAt =
    oldKeyExpiresInSeconds === undefined ? undefined : new Date(Date.now() + oldKeyExpiresInSeconds * 1000);
  const { key, previous } = await rotateProjectKey(deps.platformDb, projectId, keyId, {
    createdBy: context.actorEmail,
    oldExpiresAt,
  });
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'key.rotate',
    target: keyId,
    outcome: 'success',
    details: { newKeyId: key.id, publicKey: key.publicKey, oldKeyExpiresAt: oldExpiresAt?.toISOString() ?? null },
  });
  return { key: { ...toKey(key), secretKey: key.secretKey }, previous: toKey(previous) };
}

/** Revokes a pair; every service refuses it within its key cache TTL, which the answer states. */
export async function revokeKey(
  deps: KeyDeps,
  context: AuditContext,
  tenantId: string,
  projectId: string,
  keyId: string,
): Promise<{ key: KeyView; effectiveWithinSeconds: number }> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const key = await revokeProjectKey(deps.platformDb, projectId, keyId);
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'key.revoke',
    target: keyId,
    outcome: 'success',
    details: { publicKey: key.publicKey },
  });
  return { key: toKey(key), effectiveWithinSeconds: Math.ceil(deps.keyCacheTtlMs / 1000) };
}
