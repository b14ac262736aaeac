import type { TenantContext } from './tenant-context';
import type { AccessTokenClaims } from './bearer';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      tenant?: TenantContext;
      auth?: AccessTokenClaims;
      /** The unparsed body, kept for signature checks of incoming webhooks. */
      rawBody?: Buffer;
    }
  }
}

export {};
