import request from 'supertest';
import { createTestService, describeProjectErasure } from '@platform/testkit';
import { authService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';
import { PASSWORD, uniqueEmail } from './support/auth-test-service';

describeProjectErasure({
  service: 'auth',
  definition: authService,
  tables: ERASURE_TABLES,
  start: (bus) =>
    createTestService(authService, {
      bus,
      env: { BCRYPT_COST: '4', AUTH_FORGOT_PASSWORD_MIN_MS: '0', AUTH_RATE_LIMIT_PER_IP: '100000' },
    }),
  async seed(svc, project) {
    const email = uniqueEmail('erased');
    const call = (path: string, body: object) => request(svc.app).post(`/v1${path}`).set(project.headers).send(body);
    expect((await call('/register', { email, password: PASSWORD })).status).toBe(201);
    expect((await call('/login', { email, password: PASSWORD })).status).toBe(200);
    expect((await call('/login', { email, password: 'wrong password!' })).status).toBe(401);
    expect((await call('/forgot-password', { email })).status).toBe(200);
  },
  seeded: ['users', 'refresh_tokens', 'account_tokens', 'login_failures'],
});
