import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for vendor secrets at rest. Ciphertexts carry the id of the key that made
 * them ("v1.<keyId>.<iv>.<tag>.<data>"), so a new master key can be added while old rows
 * are still readable.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly currentKeyId: string;

  constructor(masterKeys: Buffer | Record<string, Buffer>, currentKeyId?: string) {
    const entries = Buffer.isBuffer(masterKeys) ? { [keyIdOf(masterKeys)]: masterKeys } : masterKeys;
    this.keys = new Map(Object.entries(entries));
    for (const [id, key] of this.keys) {
      if (key.length !== 32) throw new Error(`master key ${id} must be 32 bytes`);
    }
    this.currentKeyId = currentKeyId ?? [...this.keys.keys()][0];
    if (!this.keys.has(this.currentKeyId)) throw new Error('current master key id is unknown');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
    return ['v1', this.currentKeyId, ...parts].join('.');
  }

  decrypt(sealed: string): string {
    const [version, keyId, iv, tag, data] = sealed.split('.');
    const key = this.keys.get(keyId);
    if (version !== 'v1' || !key || data === undefined) throw new Error('unreadable ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  encryptJson(value: unknown): string {
    return this.encrypt(JSON.stringify(value));
  }

  decryptJson<T>(sealed: string): T {
    return JSON.parse(this.decrypt(sealed)) as T;
  }
}

/** A short stable id for a master key: the first bytes of its SHA-256. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
