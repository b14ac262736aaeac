import { createSign, randomUUID } from 'node:crypto';
import type { MemberRole } from '@platform/tenancy';
import { testJwtKeys } from './test-service';

export interface MemberTokenOptions {
  role?: MemberRole | string;
  memberId?: string;
  email?: string;
  /** Seconds from now; negative for an expired token. */
  ttlSeconds?: number;
  issuer?: string;
  audience?: string;
  typ?: string;
  /** Another signing key (PEM) than the platform's. */
  privateKey?: string;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A member token for a project as the console signs it (RS256, the platform's test key pair),
 * or spoiled in one way the options name: for tests of what the services accept and refuse.
 */
export function memberToken(
  project: { tenantId: string; projectId: string },
  options: MemberTokenOptions = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const ttl = options.ttlSeconds ?? 300;
  const payload = {
    sub: options.memberId ?? randomUUID(),
    email: options.email ?? 'member@example.com',
    tid: project.tenantId,
    pid: project.projectId,
    role: options.role ?? 'developer',
    typ: options.typ ?? 'member',
    iss: options.issuer ?? 'platform-console',
    aud: options.audience ?? 'platform-services',
    iat: ttl < 0 ? now + ttl - 60 : now,
    exp: now + ttl,
  };
  const unsigned = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(payload)}`;
  const signature = createSign('RSA-SHA256')
    .update(unsigned)
    .sign(options.privateKey ?? testJwtKeys().privateKey)
    .toString('base64url');
  return `${unsigned}.${signature}`;
}
