import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from '@platform/db';

export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (jest global setup sets it)');
  return url;
}

/** A brand-new empty database on the test server; drop() removes it. */
export async function createTestDatabase(
  prefix: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `t_${prefix.replace(/[^a-z0-9]/g, '_')}_${randomBytes(5).toString('hex')}`;
  const server = testServerUrl();
  await ensureDatabase(server, name);
  return { url: withDatabase(server, name), name, drop: () => dropDatabase(server, name) };
}
