import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { redact } from '@platform/http';
import { accessTokenAudience, signAccessToken, verifyAccessToken } from '../src';
import { toAppError } from '../src/error-handler';

describe('log redaction', () => {
  it('when a log line carries secrets at any depth, then their values are replaced', () => {
    const out = redact({
      apiKey: 'k',
      nested: { password: 'p', config: { secretKey: 's', name: 'ok' } },
      list: [{ token: 't' }],
    });
    expect(JSON.stringify(out)).not.toMatch(/"k"|"p"|"s"|"t"/);
    expect(out).toMatchObject({ nested: { config: { name: 'ok' } } });
  });
  it('when a text quotes a webhook secret in standard base64, then none of it is left', () => {
    const secret = 'whsec_ab+/cdEFgh+ijk/lmnopQRSTuvwx+yz0123456789ABC/de=';
    expect(redact(`delivery failed for ${secret} today`)).toBe('delivery failed for [REDACTED] today');
  });
});

describe('errors from an unreachable database', () => {
  it.each([
    'select "id" from "users" where "email" = $1 - Connection terminated unexpectedly',
    'ROLLBACK - Client has encountered a connection error and is not queryable',
    'Connection terminated unexpectedly',
  ])('when knex or pg reports "%s", then the answer is 503 with Retry-After', (message) => {
    const error = toAppError(new Error(message));
    expect(error.status).toBe(503);
    expect(error.headers?.['Retry-After']).toMatch(/^\d+$/);
  });

  it('when a query fails for another reason, then it stays a 500', () => {
    expect(toAppError(new Error('select 1 - column "x" does not exist')).status).toBe(500);
  });
});

describe('values Postgres cannot store', () => {
  const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });

  it('when the input holds a NUL character, then the 400 names where', () => {
    const error = toAppError(refused, { query: {}, body: { title: 'x', metadata: { deep: ['ok', 'n\u0000l'] } } });
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ path: 'metadata.deep.1', message: 'contains a NUL character' }]);
  });

  it('when no NUL character is found in the input, then it is a 400 without details', () => {
    const error = toAppError(Object.assign(new Error('date/time field value out of range'), { code: '22008' }), {
      query: { from: '99999-01-01' },
    });
    expect(error.status).toBe(400);
    expect(error.details).toBeUndefined();
  });
});

describe('access token audience', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const claims = { userId: 'u1', tenantId: 't1', projectId: 'p1', email: 'a@example.com', tokenVersion: 0 };

  it('when a token names its project as audience, with sid and aal, then it verifies with them', () => {
    const token = signAccessToken({ ...claims, sessionId: 's1', aal: 'aal2' }, privateKey);
    expect(verifyAccessToken(token, publicKey)).toMatchObject({ ...claims, sessionId: 's1', aal: 'aal2' });
  });

  it('when the audience names another project, then the token is refused', () => {
    const forged = jwt.sign(
      { tid: 't1', pid: 'p1', typ: 'access', aud: accessTokenAudience('p2') },
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
      { algorithm: 'RS256', subject: 'u1', issuer: 'platform-auth', expiresIn: 60 },
    );
    expect(verifyAccessToken(forged, publicKey)).toBeNull();
  });

  it('when a token from before audiences has none, then it is still accepted', () => {
    const legacy = jwt.sign(
      { tid: 't1', pid: 'p1', typ: 'access' },
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
      { algorithm: 'RS256', subject: 'u1', issuer: 'platform-auth', expiresIn: 60 },
    );
    expect(verifyAccessToken(legacy, publicKey)).toMatchObject({ userId: 'u1', projectId: 'p1' });
  });
});
