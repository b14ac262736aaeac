import { generateSecret, generateSync } from 'otplib';
import { base32Decode, base32Encode, matchTotp, totpCode, stepAt } from './totp';

describe('TOTP', () => {
  it('when a standard library makes a code at a chosen time, then it matches that step', () => {
    const secret = generateSecret();
    const epoch = 1_800_000_000;
    const code = generateSync({ secret, epoch });
    expect(totpCode(secret, stepAt(epoch * 1000))).toBe(code);
    expect(matchTotp(secret, code, { nowMs: epoch * 1000 })).toBe(stepAt(epoch * 1000));
  });

  it('when the code is one step off (clock skew), then it matches; two steps off, then not', () => {
    const secret = generateSecret();
    const epoch = 1_800_000_000;
    const code = generateSync({ secret, epoch });
    expect(matchTotp(secret, code, { nowMs: (epoch + 30) * 1000 })).not.toBeNull();
    expect(matchTotp(secret, code, { nowMs: (epoch + 61) * 1000 })).toBeNull();
  });

  it('when the step was already used, then the code no longer matches', () => {
    const secret = generateSecret();
    const nowMs = 1_800_000_000_000;
    const code = generateSync({ secret, epoch: nowMs / 1000 });
    const step = matchTotp(secret, code, { nowMs })!;
    expect(matchTotp(secret, code, { nowMs, afterStep: step })).toBeNull();
  });

  it('when bytes go through base32, then they come back', () => {
    const bytes = Buffer.from('any bytes at all, 12345');
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });
});
