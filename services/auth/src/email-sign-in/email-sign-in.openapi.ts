import { json, type OperationDefinition, KEYS } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { challengeResponse } from '../mfa/mfa.responses';
import { sessionResponse } from '../sessions/sessions.responses';
import { messageResponse } from '../shared/responses';
import { otpRequestSchema, otpVerifySchema } from './email-sign-in.schemas';

const signInResult = Joi.alternatives().try(sessionResponse, challengeResponse).id('OtpSignInResult');

/** The contract of sign-in by an e-mailed link or code. */
export function emailSignInOperations(rateLimited: string): OperationDefinition[] {
  return [
    {
      method: 'post',
      path: '/otp',
      operationId: 'postOtp',
      summary: 'Send a sign-in link and code by e-mail',
      description: `Writes auth.sign-in.requested: the Mailer sends the project's auth.sign-in template (locale variants as for verification e-mails) with a link (<appUrl>/sign-in?token=...) and a six-digit code. Either works once, for 10 minutes; a new request makes earlier ones stop working; only their hashes are stored. An address without an account gets one when it signs in, unless the project setting emailSignUp is false. The answer is the same, in about the same time, whether or not the address has an account. ${rateLimited}`,
      security: KEYS,
      request: { body: otpRequestSchema },
      responses: { 200: json('Sent when the address can sign in', messageResponse) },
      errors: [400, 401, 429],
    },
    {
      method: 'post',
      path: '/otp/verify',
      operationId: 'postOtpVerify',
      summary: 'Sign in with the e-mailed link or code',
      description: `Send {token} (from the link) or {email, code}. Signs in as POST /login does (same session, tokens and MFA challenge when the user has a second factor); the e-mail counts as verified. A wrong, used or expired link or code is 401 INVALID_CREDENTIALS; a wrong code counts toward the e-mail's lockout like a wrong password (423 ACCOUNT_LOCKED with Retry-After). A disabled user is 403. ${rateLimited}`,
      security: KEYS,
      request: { body: otpVerifySchema },
      responses: { 200: json('Signed in, or an MFA challenge', signInResult) },
      errors: [400, 401, 403, 423, 429],
    },
  ];
}
