import { createHash, createPublicKey } from 'node:crypto';

/**
 * SHA-256 fingerprints of every key and password published in this repository (the sample
 * values of `.env.example`, and the well-known defaults our examples use). Keys are compared by
 * their public key (SPKI DER) and the master key by its bytes, so reformatting does not help.
 */
const PUBLISHED = new Set([
  // .env.example: POSTGRES_PASSWORD, RABBITMQ_PASSWORD, REDIS_PASSWORD
  '306c26e622cbd898bc4c8762d31b80a4e4dc5af32503dda2d1bcc33d9cdf1f6a',
  '84b7b69d91a5915199dafab6554040966cd41066afcf2af09851b4b89065be05',
  'e5e3fd20580e3711d344410f9b2cabc80eeff6c3b945132f702062f78e4792cb',
  // .env.example: the services' own logins, AUTH_DB_PASSWORD ... NOTIFICATIONS_DB_PASSWORD
  'fcce3db2980a271fc8f16ea15889845eb53137015a0ba26463334082dd1a2cb2',
  '2c114273ac7e0b5f39e4b3f61f03f062f78347d65b8a49f55f7b9ab5bc04dd48',
  'cc8986834f45b7907075adb4dfbba469ea8f8827203d34b93636baec8a893676',
  '41708e7bbe5012c55d9113d6f0ad1f4bf73c947090c66c34394c5e57ba1debf5',
  '18ed2456a64605320fe9588029ae25bdd5a443c03fe0b9b3c86066b009a5581d',
  '3f68364edbf411f4e7c7f15223853de8fcb059079bdc05063f0841ae1c9ee648',
  // .env.example: CONSOLE_DB_PASSWORD
  '063e631c2e550885c123c94ec3c7f6fd644b2a3fe186ede91d696f3157348862',
  // .env.example: MASTER_KEY
  '195878c5205d00d4809ebd81ba23429aa7876b5b01d57b479ca95f8c9690a365',
  // .env.example: the JWT key pair
  '7803c616ed61e5ca0618972534a042d622ea52bf0cbe19ca9629bc0e904bca93',
  // "guest" and "postgres": the brokers' and databases' defaults in our examples and CI
  '84983c60f7daadc1cb8698621f802c0d9f9a3c3c295c810748fb048115c186ec',
  'a942b37ccfaf5a813b1432caa209a43b9d144e47ad0de1549c289c253e556cd5',
]);

const fingerprint = (value: Buffer | string) => createHash('sha256').update(value).digest('hex');

function keyFingerprint(pem: string): string | null {
  try {
    return fingerprint(createPublicKey(pem).export({ type: 'spki', format: 'der' }));
  } catch {
    return null;
  }
}

function urlPassword(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : null;
  } catch {
    return null;
  }
}

/** Whether a password, a master key (raw bytes) or a PEM key is one this repository publishes. */
export function isPublishedSecret(value: string | Buffer, kind: 'password' | 'bytes' | 'pem'): boolean {
  if (kind === 'pem') {
    const print = keyFingerprint(value.toString());
    return print !== null && PUBLISHED.has(print);
  }
  return PUBLISHED.has(fingerprint(value));
}

/** The secrets of the platform configuration (`PlatformConfig` of @platform/runtime fits). */
export interface SecretSettings {
  databaseUrl?: string;
  platformDatabaseUrl?: string;
  amqpUrl?: string;
  redisUrl?: string;
  masterKey?: Buffer;
  jwtPrivateKey?: string;
  jwtPublicKey?: string;
}

/** The settings whose value is published in this repository (so known to anyone). */
export function settingsWithPublishedSecrets(config: SecretSettings): string[] {
  const found: string[] = [];
  const urls = {
    DATABASE_URL: config.databaseUrl,
    PLATFORM_DATABASE_URL: config.platformDatabaseUrl,
    AMQP_URL: config.amqpUrl,
    REDIS_URL: config.redisUrl,
  };
  for (const [name, url] of Object.entries(urls)) {
    const password = urlPassword(url);
    if (password !== null && isPublishedSecret(password, 'password')) found.push(`${name} (its password)`);
  }
  if (config.masterKey && isPublishedSecret(config.masterKey, 'bytes')) found.push('MASTER_KEY');
  if (config.jwtPrivateKey && isPublishedSecret(config.jwtPrivateKey, 'pem')) found.push('JWT_PRIVATE_KEY');
  if (config.jwtPublicKey && isPublishedSecret(config.jwtPublicKey, 'pem')) found.push('JWT_PUBLIC_KEY');
  return found;
}
