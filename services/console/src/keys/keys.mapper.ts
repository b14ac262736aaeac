import type { KeyRecord } from '@platform/directory';
import { toIso } from '@platform/tenancy';

/** A key pair as listed: the public key and metadata, never the secret. */
export interface KeyView {
  id: string;
  name: string;
  publicKey: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

/** The one response that carries a secret key: creation and rotation. */
export interface IssuedKeyView extends KeyView {
  secretKey: string;
}

export function toKey(key: KeyRecord, now = new Date()): KeyView {
  return {
    id: key.id,
    name: key.name,
    publicKey: key.publicKey,
    createdBy: key.createdBy,
    createdAt: toIso(key.createdAt)!,
    lastUsedAt: toIso(key.lastUsedAt),
    expiresAt: toIso(key.expiresAt),
    revokedAt: toIso(key.revokedAt),
    status: key.revokedAt
      ? 'revoked'
      : key.expiresAt && key.expiresAt.getTime() <= now.getTime()
        ? 'expired'
        : 'active',
  };
}
