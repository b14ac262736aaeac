import { createPublicKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import type { TestProject, TestService } from '@platform/testkit';
import { apiOf, registerUser, startAuth, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

describe('GET /v1/.well-known/jwks.json', () => {
  it('when fetched without credentials, then its key verifies the access tokens issued', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const res = await api.get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    const [jwk] = res.body.keys;
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    const claims = jwt.verify(accessToken, key, { algorithms: ['RS256'] }) as jwt.JwtPayload;
    expect(claims.sub).toBe(user.id);
    // Verifiers that fetch the set pick the key by the token's kid.
    expect(jwt.decode(accessToken, { complete: true })?.header.kid).toBe(jwk.kid);
  });
});

describe('GET /v1/openapi.json', () => {
  it('when fetched, then it documents every route of the service', async () => {
    const res = await request(svc.app).get('/v1/openapi.json');
    expect(Object.keys(res.body.paths).sort()).toEqual(
      [
        '/.well-known/jwks.json',
        '/anonymous',
        '/authorize',
        '/callback',
        '/events',
        '/forgot-password',
        '/login',
        '/logout',
        '/me',
        '/me/convert',
        '/me/events',
        '/me/identities',
        '/me/identities/{id}',
        '/me/password',
        '/mfa/factors',
        '/mfa/factors/{id}',
        '/mfa/recovery-codes',
        '/mfa/totp',
        '/mfa/totp/{id}/activate',
        '/mfa/verify',
        '/oidc/providers',
        '/oidc/providers/{name}',
        '/otp',
        '/otp/verify',
        '/passkeys',
        '/passkeys/authentication/options',
        '/passkeys/authentication/verify',
        '/passkeys/registration/options',
        '/passkeys/registration/verify',
        '/passkeys/{id}',
        '/refresh-token',
        '/register',
        '/resend-verification',
        '/reset-password',
        '/sessions',
        '/sessions/{id}',
        '/token',
        '/users',
        '/users/by-email',
        '/users/{userId}/events',
        '/users/{userId}/sessions',
        '/users/{userId}/sessions/{id}',
        '/users/{user_id}',
        '/users/{user_id}/disable',
        '/users/{user_id}/enable',
        '/users/{user_id}/resend-verification',
        '/verify-email',
      ].sort(),
    );
    expect(Object.keys(res.body.paths['/me']).sort()).toEqual(['delete', 'get', 'patch']);
  });
});
