import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Joi } from '@platform/tenancy';

const challengeId = Joi.string().max(64).required().description('challengeId of the options answer');
const name = Joi.string().trim().min(1).max(100).description('A label the user chooses for the passkey');

/** The browser's credential as JSON (base64url fields); its contents are checked by the WebAuthn library. */
const credential = Joi.object({
  id: Joi.string().max(1024).required(),
  rawId: Joi.string().max(1024).required(),
  type: Joi.string().valid('public-key').required(),
  response: Joi.object().unknown(true).required(),
  clientExtensionResults: Joi.object().unknown(true).default({}),
  authenticatorAttachment: Joi.string().max(32),
}).description('PublicKeyCredential as JSON, binary fields base64url-encoded');

export const registrationVerifySchema = Joi.object<{
  challengeId: string;
  response: RegistrationResponseJSON;
  name?: string;
}>({ challengeId, response: credential.required(), name });

export const authenticationOptionsSchema = Joi.object<{ email?: string }>({
  email: Joi.string().email().max(320).lowercase().trim().description('Omit for a discoverable credential'),
});

export const authenticationVerifySchema = Joi.object<{ challengeId: string; response: AuthenticationResponseJSON }>({
  challengeId,
  response: credential.required(),
});

export const renameSchema = Joi.object<{ name: string }>({ name: name.required() });

export const passkeyIdParams = Joi.object({ id: Joi.string().required().description('Passkey id') });
