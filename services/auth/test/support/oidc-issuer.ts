import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';

export interface IssuerClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

export interface TestIssuer {
  issuer: string;
  /** Makes the next token answer carry an ID token with these claims changed (re-signed with the issuer's key). */
  tamperNextIdToken(claims: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * node-oidc-provider, a real OpenID Connect provider, in a child process (it is an ES module
 * only) on a free local port, with the given clients and accounts (`sub` -> claims).
 */
export async function startTestIssuer(options: {
  clients: IssuerClient[];
  accounts: Record<string, { email?: string; email_verified?: boolean }>;
}): Promise<TestIssuer> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-issuer-process.mjs')], {
    cwd: join(__dirname, '..', '..'),
    env: { ...process.env, OIDC_ISSUER_CONFIG: JSON.stringify({ ...options, privateJwk }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`issuer exited with ${code}: ${stderr}`)));
  });
  return {
    issuer,
    async tamperNextIdToken(claims) {
      const res = await fetch(`${issuer}/__tamper`, { method: 'POST', body: JSON.stringify({ claims }) });
      if (res.status !== 204) throw new Error(`tamper answered ${res.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
