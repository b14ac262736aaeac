import bcrypt from 'bcrypt';
import { PasswordHasher, passwordProblem } from './password-hasher';

describe('passwordProblem', () => {
  it.each([
    ['7 ASCII bytes', '1234567', 'at least 8'],
    ['73 ASCII bytes', 'a'.repeat(73), 'at most 72'],
    ['25 three-byte characters (75 bytes)', '€'.repeat(25), 'at most 72'],
    ['a NUL character', 'password\u0000x', 'NUL'],
  ])('when the password is %s, then it is refused', (_case, password, reason) => {
    expect(passwordProblem(password)).toContain(reason);
  });

  it.each([
    ['8 ASCII bytes', '12345678'],
    ['72 ASCII bytes', 'a'.repeat(72)],
    ['24 three-byte characters (72 bytes)', '€'.repeat(24)],
  ])('when the password is %s, then it is accepted', (_case, password) => {
    expect(passwordProblem(password)).toBeUndefined();
  });
});

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(4);

  it('when the password matches its hash, then verify is true; otherwise false', async () => {
    const hash = await hasher.hash('right password');
    expect(hash).toMatch(/^\$2b\$04\$/);
    expect(await hasher.verify('right password', hash)).toBe(true);
    expect(await hasher.verify('wrong password', hash)).toBe(false);
  });

  it('when there is no stored hash, then verify is false', async () => {
    expect(await hasher.verify('any password', null)).toBe(false);
  });

  it('when the password could never have been set, then verify is false even against a matching prefix', async () => {
    const hash = await hasher.hash('a'.repeat(72));
    expect(await hasher.verify('a'.repeat(73), hash)).toBe(false);
  });

  it('when the user is unknown, then verifying still does one full comparison at the same cost', async () => {
    // Timing is too noisy on a shared machine to assert; what makes the times equal is that
    // both paths do exactly one bcrypt comparison against a hash of the configured cost.
    const slow = new PasswordHasher(8);
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      await slow.verify('wrong password', null);
      await slow.verify('x'.repeat(100), null);
      expect(compare).toHaveBeenCalledTimes(2);
      for (const [, hash] of compare.mock.calls) expect(String(hash)).toMatch(/^\$2b\$08\$/);
    } finally {
      compare.mockRestore();
    }
  });
});
