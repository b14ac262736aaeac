import { Router } from 'express';
import { boundedJsonBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys, requireBearer } from '@platform/tenancy';
import { ProjectSlots } from '@platform/limits';
import type { AuthConfig } from './config';
import type { Issuer } from './issuer';
import { anonymousHandlers } from './anonymous/anonymous.router';
import { auditHandlers } from './audit/audit.router';
import { emailSignInHandlers } from './email-sign-in/email-sign-in.router';
import { jwksHandler } from './jwks/jwks.router';
import { mfaHandlers } from './mfa/mfa.router';
import { IssuerDirectory } from './oidc/issuer-metadata';
import { oidcHandlers } from './oidc/oidc.router';
import { providerHandlers } from './oidc/providers.router';
import { ipAndEmailLimits, keysWhenSent } from './middleware';
import { passkeyHandlers } from './passkeys/passkeys.router';
import { passwordHandlers } from './passwords/passwords.router';
import { registrationHandlers } from './registration/registration.router';
import { sessionHandlers } from './sessions/sessions.router';
import { userAdminHandlers } from './user-admin/user-admin.router';
import { userSessionHandlers } from './user-sessions/user-sessions.router';
import { userHandlers } from './users/users.router';
import { verificationHandlers } from './verification/verification.router';

/** The whole route table of the Authentication service (mounted under /v1). */
export function createRoutes(deps: ServiceDeps, config: AuthConfig, issuer: Issuer): Router {
  const { db, relay, logger } = deps;
  const keys = projectKeys(deps);
  const optionalKeys = keysWhenSent(deps.directory);
  const bearer = requireBearer(deps.jwt.publicKey);
  // Enrolling a second factor is what a token issued under requireMfa without one is for.
  const enrollingBearer = requireBearer(deps.jwt.publicKey, { allowEnrollmentOnly: true });
  const limits = (endpoint: string) => ipAndEmailLimits(endpoint, config, deps);

  const registration = registrationHandlers(db, relay, issuer);
  const sessions = sessionHandlers(db, issuer, logger);
  const passwords = passwordHandlers(db, relay, issuer, { minMs: config.forgotPasswordMinMs, logger });
  const verification = verificationHandlers(db, relay, issuer.appUrl);
  const users = userHandlers(db);
  const userAdmin = userAdminHandlers(db, relay, issuer.appUrl);
  const userSessions = userSessionHandlers(db);
  const audit = auditHandlers(db);
  const mfa = mfaHandlers({ db, secrets: deps.secrets, issuer });
  const passkeys = passkeyHandlers({ db, issuer });
  const anonymous = anonymousHandlers(db, relay, issuer);
  const callbackUrl = `${config.oidc.publicUrl}/v1/callback`;
  const { timeoutMs, maxResponseBytes, allowedHosts, slotsPerProject } = config.oidc;
  const oidcContext = {
    db,
    secrets: deps.secrets,
    issuer,
    issuers: new IssuerDirectory({ timeoutMs, maxResponseBytes, allowedHosts }),
    slots: new ProjectSlots({ perProject: slotsPerProject }),
    callbackUrl,
    secureCookie: callbackUrl.startsWith('https:'),
  };
  const oidc = oidcHandlers(oidcContext, deps.directory);
  const providers = providerHandlers({ db, secrets: deps.secrets, callbackUrl });
  const emailSignIn = emailSignInHandlers(db, relay, issuer, { minMs: config.forgotPasswordMinMs, logger });

  const router = Router();
  router.post('/register', keys, limits('register'), registration.register);
  router.post('/login', keys, limits('login'), sessions.login);
  router.post('/anonymous', keys, limits('anonymous'), anonymous.signIn);
  router.post('/me/convert', keys, bearer, anonymous.convert);
  // A browser navigation: the public key comes in the query, the provider's callback with none.
  router.get('/authorize', limits('authorize'), oidc.authorize);
  router.get('/callback', oidc.callback);
  router.post('/token', keys, limits('token'), oidc.token);
  router.get('/me/identities', optionalKeys, bearer, oidc.identities);
  router.post('/me/identities', keys, bearer, oidc.link);
  router.delete('/me/identities/:id', optionalKeys, bearer, oidc.unlink);
  router.post('/oidc/providers', keys, providers.create);
  router.get('/oidc/providers', keys, providers.list);
  router.get('/oidc/providers/:name', keys, providers.get);
  router.patch('/oidc/providers/:name', keys, providers.update);
  router.delete('/oidc/providers/:name', keys, providers.remove);
  router.post('/otp', keys, limits('otp'), emailSignIn.request);
  router.post('/otp/verify', keys, limits('otp-verify'), emailSignIn.verify);
  router.post('/refresh-token', keys, sessions.refresh);
  router.post('/logout', keys, sessions.logout);
  router.post('/forgot-password', keys, limits('forgot-password'), passwords.forgot);
  router.post('/reset-password', keys, passwords.reset);
  // Public (no keys needed): its body is a token, so it is bounded far below BODY_LIMIT.
  router.post('/verify-email', optionalKeys, boundedJsonBody('4kb'), verification.verify);
  router.post('/resend-verification', keys, limits('resend-verification'), verification.resend);
  router.get('/me', optionalKeys, bearer, users.getMe);
  router.patch('/me', optionalKeys, bearer, users.updateMe);
  router.delete('/me', optionalKeys, bearer, users.removeMetadata);
  router.post('/me/password', optionalKeys, bearer, passwords.change);
  router.get('/me/events', optionalKeys, bearer, audit.mine);
  router.get('/events', keys, audit.project);
  router.get('/users/:userId/events', keys, audit.user);
  router.get('/sessions', optionalKeys, bearer, userSessions.mine.list);
  router.delete('/sessions', optionalKeys, bearer, userSessions.mine.endMany);
  router.get('/sessions/:id', optionalKeys, bearer, userSessions.mine.get);
  router.delete('/sessions/:id', optionalKeys, bearer, userSessions.mine.end);
  router.post('/mfa/totp', optionalKeys, enrollingBearer, mfa.enroll);
  router.post('/mfa/totp/:id/activate', optionalKeys, enrollingBearer, mfa.activate);
  router.get('/mfa/factors', optionalKeys, enrollingBearer, mfa.list);
  router.delete('/mfa/factors/:id', optionalKeys, bearer, mfa.remove);
  router.post('/mfa/recovery-codes', optionalKeys, bearer, mfa.regenerate);
  router.post('/mfa/verify', keys, limits('mfa-verify'), mfa.verify);
  // Registration needs the project's keys too: its settings name the relying party.
  router.post('/passkeys/registration/options', keys, bearer, passkeys.registrationOptions);
  router.post('/passkeys/registration/verify', keys, bearer, passkeys.registrationVerify);
  router.post('/passkeys/authentication/options', keys, limits('passkey-options'), passkeys.authenticationOptions);
  router.post('/passkeys/authentication/verify', keys, limits('passkey-verify'), passkeys.authenticationVerify);
  router.get('/passkeys', optionalKeys, bearer, passkeys.list);
  router.patch('/passkeys/:id', optionalKeys, bearer, passkeys.rename);
  router.delete('/passkeys/:id', optionalKeys, bearer, passkeys.remove);
  router.get('/users/by-email', keys, users.lookup);
  router.get('/users', keys, userAdmin.list);
  router.get('/users/:user_id', keys, userAdmin.get);
  router.delete('/users/:user_id', keys, userAdmin.remove);
  router.post('/users/:user_id/disable', keys, userAdmin.disable);
  router.post('/users/:user_id/enable', keys, userAdmin.enable);
  router.post('/users/:user_id/resend-verification', keys, userAdmin.resendVerification);
  router.get('/users/:userId/sessions', keys, userSessions.ofUser.list);
  router.delete('/users/:userId/sessions', keys, userSessions.ofUser.endAll);
  router.get('/users/:userId/sessions/:id', keys, userSessions.ofUser.get);
  router.delete('/users/:userId/sessions/:id', keys, userSessions.ofUser.end);
  router.get('/.well-known/jwks.json', jwksHandler(deps.jwt.publicKey));
  return router;
}
