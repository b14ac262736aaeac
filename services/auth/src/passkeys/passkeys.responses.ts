import { Joi } from '@platform/tenancy';
import type { Passkey } from './passkeys.model';

const dateTime = { format: 'date-time' };

export const passkeyResponse = Joi.object<Passkey>({
  id: Joi.string().guid().required(),
  name: Joi.string().required(),
  deviceType: Joi.string().valid('singleDevice', 'multiDevice').required().description('multiDevice: a synced passkey'),
  backedUp: Joi.boolean().required().description('The authenticator reported the credential as backed up'),
  transports: Joi.array().items(Joi.string()).required(),
  createdAt: Joi.string().required().meta(dateTime),
  lastUsedAt: Joi.string().allow(null).required().meta(dateTime),
}).id('Passkey');

export const passkeyEnvelopeResponse = Joi.object({ passkey: passkeyResponse.required() }).id('PasskeyEnvelope');

export const passkeyListResponse = Joi.object({ passkeys: Joi.array().items(passkeyResponse).required() }).id(
  'PasskeyList',
);

export const ceremonyOptionsResponse = Joi.object({
  challengeId: Joi.string().guid().required().description('Send back with the credential; works once, 5 minutes'),
  options: Joi.object()
    .unknown(true)
    .required()
    .description(
      'PublicKeyCredentialCreationOptions / RequestOptions as JSON, binary fields (challenge, user.id, credential ids) base64url-encoded',
    ),
}).id('PasskeyCeremonyOptions');
