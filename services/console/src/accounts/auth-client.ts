import { errors } from '@platform/tenancy';
import type { ReservedKeys } from './reserved-project';

export interface AuthAnswer {
  status: number;
  body: unknown;
}

/**
 * Calls the Authentication service with the reserved project's keys: the console's members are
 * that project's users, so what Authentication does (verification and reset e-mails through the
 * Mailer, lockouts, later MFA) applies to them unchanged.
 */
export async function callAuth(
  authUrl: string,
  keys: ReservedKeys,
  path: string,
  body: unknown,
  forwarded: { clientAddress?: string; userAgent?: string },
): Promise<AuthAnswer> {
  let response: Response;
  try {
    response = await fetch(`${authUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': keys.apiKey,
        'x-secret-key': keys.secretKey,
        'x-tenant-id': keys.tenantId,
        'x-project-id': keys.projectId,
        ...(forwarded.userAgent ? { 'user-agent': forwarded.userAgent } : {}),
        ...(forwarded.clientAddress ? { 'x-forwarded-for': forwarded.clientAddress } : {}),
      },
      body: JSON.stringify(body ?? {}),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw errors.vendorUnreachable('The Authentication service cannot be reached', error);
  }
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Whether Authentication says the access token's user has verified their e-mail address. */
export async function emailVerified(authUrl: string, keys: ReservedKeys, accessToken: string): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(`${authUrl}/me`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        'x-api-key': keys.apiKey,
        'x-secret-key': keys.secretKey,
        'x-tenant-id': keys.tenantId,
        'x-project-id': keys.projectId,
      },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw errors.vendorUnreachable('The Authentication service cannot be reached', error);
  }
  if (!response.ok) return false;
  const body = (await response.json()) as { user?: { emailVerified?: unknown } };
  return body.user?.emailVerified === true;
}
