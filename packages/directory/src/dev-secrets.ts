import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Reads a file under .data, creating it once with `make()` (development only). */
function readOrCreate(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, make(), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8');
}

export function devMasterKey(dataDir: string): Buffer {
  return Buffer.from(readOrCreate(dataDir, 'master.key', () => randomBytes(32).toString('base64')).trim(), 'base64');
}

export function devJwtKeys(dataDir: string): { privateKey: string; publicKey: string } {
  const privateKey = readOrCreate(dataDir, 'jwt-private.pem', () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(
      path.join(dataDir, 'jwt-public.pem'),
      pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  });
  const publicKey = readFileSync(path.join(dataDir, 'jwt-public.pem'), 'utf8');
  return { privateKey, publicKey };
}
