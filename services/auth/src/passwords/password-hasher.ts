import bcrypt from 'bcrypt';
import { randomToken } from '@platform/tenancy';

export const PASSWORD_MIN_BYTES = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
export const PASSWORD_MAX_BYTES = 72;

/** Why a password cannot be used, or undefined when it can. */
export function passwordProblem(password: string): string | undefined {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes < PASSWORD_MIN_BYTES) return `password must be at least ${PASSWORD_MIN_BYTES} bytes`;
  if (bytes > PASSWORD_MAX_BYTES) return `password must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8`;
  // The native code stops at a NUL byte, which would make "abc\0anything" equal "abc".
  if (password.includes('\0')) return 'password must not contain NUL characters';
  return undefined;
}

/**
 * bcrypt through the native `bcrypt` package: its async calls run on libuv's thread pool, so
 * hashing never blocks the event loop.
 */
export class PasswordHasher {
  private readonly dummyHash: Promise<string>;

  constructor(readonly cost: number) {
    // Made at start, so that the first unknown-email login is not slower than the rest.
    this.dummyHash = bcrypt.hash(randomToken(), cost);
    this.dummyHash.catch(() => undefined);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /**
   * True when the password matches. Without a stored hash (unknown user) or with a password
   * no account can have, it still does one full comparison against a dummy hash of the same
   * cost, so the answer takes about the same time either way.
   */
  async verify(password: string, hash: string | null): Promise<boolean> {
    const usable = passwordProblem(password) === undefined;
    if (hash && usable) return bcrypt.compare(password, hash);
    await bcrypt.compare(usable ? password : 'not-a-password', await this.dummyHash);
    return false;
  }
}
