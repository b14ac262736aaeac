import { randomBytes } from 'node:crypto';
import { SecretBox } from '../src/secret-box';

describe('SecretBox', () => {
  it('when a secret is sealed, then only the same key opens it and the text is not visible', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.encrypt('sk_live_very_secret');
    expect(sealed).not.toContain('sk_live');
    expect(box.decrypt(sealed)).toBe('sk_live_very_secret');
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('when the ciphertext is tampered with, then decrypting fails', () => {
    const box = new SecretBox(randomBytes(32));
    const parts = box.encrypt('hello').split('.');
    parts[4] = Buffer.from('jello').toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
  });

  it('when a new master key is added, then secrets sealed under the old one still open', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const sealed = new SecretBox({ old: oldKey }).encrypt('value');
    const rotated = new SecretBox({ old: oldKey, new: newKey }, 'new');
    expect(rotated.decrypt(sealed)).toBe('value');
    expect(rotated.encrypt('x').split('.')[1]).toBe('new');
  });
});
