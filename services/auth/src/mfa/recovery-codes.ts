import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@platform/tenancy';
import { RECOVERY_CODE_COUNT } from './mfa.model';
import { base32Encode } from './totp';

/** Case, spaces and dashes do not matter when a person types a code back. */
export const hashRecoveryCode = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));

/** Ten codes of 50 random bits each, `xxxxx-xxxxx`, and the hashes that are stored. */
export function generateRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}
