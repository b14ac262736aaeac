import { REDACTED, withoutSecrets } from '../src/redact';

describe('withoutSecrets', () => {
  it('when an answer carries secret-named fields at any depth, then their values are replaced and the rest kept', () => {
    const answer = {
      id: 'k1',
      publicKey: 'pk_live_abc',
      secretKey: 'sk_live_abc',
      items: [{ name: 'main', config: { apiKey: 'pk', webhook_secret: 'whsec_1' } }],
      user: { email: 'a@example.com', password_hash: '$2b$10$abc', hasPassword: true },
      refreshToken: 'r1',
    };
    expect(withoutSecrets(answer)).toEqual({
      id: 'k1',
      publicKey: 'pk_live_abc',
      secretKey: REDACTED,
      items: [{ name: 'main', config: { apiKey: 'pk', webhook_secret: REDACTED } }],
      user: { email: 'a@example.com', password_hash: REDACTED, hasPassword: true },
      refreshToken: REDACTED,
    });
  });

  it('when a secret-named field is a flag or empty, then it is left as it is', () => {
    expect(withoutSecrets({ secret: true, token: null })).toEqual({ secret: true, token: null });
  });
});
