import { generateKeyPairSync } from 'node:crypto';
import { jwksOf } from './jwks';

const pem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('jwksOf', () => {
  it('when the same key is exported twice, then the kid is the same; for another key it differs', () => {
    const key = pem();
    expect(jwksOf(key).keys[0].kid).toBe(jwksOf(key).keys[0].kid);
    expect(jwksOf(pem()).keys[0].kid).not.toBe(jwksOf(key).keys[0].kid);
  });

  it('when exported, then only public RSA parameters appear', () => {
    expect(Object.keys(jwksOf(pem()).keys[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });
});
