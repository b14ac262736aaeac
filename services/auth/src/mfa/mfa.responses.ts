import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import type { Factor } from './mfa.mapper';

const dateTime = { format: 'date-time' };

export const factorResponse = Joi.object<Factor>({
  id: Joi.string().guid().required(),
  type: Joi.string().valid('totp').required(),
  status: Joi.string().valid('pending', 'active').required().description('pending until a first code activates it'),
  createdAt: Joi.string().required().meta(dateTime),
  activatedAt: Joi.string().allow(null).required().meta(dateTime),
}).id('MfaFactor');

export const enrollResponse = Joi.object({
  factor: factorResponse.required(),
  secret: Joi.string().required().description('Base32 secret, for typing into an app by hand; shown this once'),
  otpauthUri: Joi.string().required().description('otpauth://totp/... (SHA1, 6 digits, 30 s)'),
  qrCodeSvg: Joi.string().required().description('The otpauth URI as a QR code, an SVG document'),
}).id('MfaEnrollment');

const recoveryCodes = Joi.array()
  .items(Joi.string())
  .length(10)
  .required()
  .description('Ten single-use recovery codes, shown this once (stored hashed)');

export const activatedResponse = succeeded(Joi, { factor: factorResponse.required(), recoveryCodes }).id(
  'MfaActivated',
);

export const recoveryCodesResponse = succeeded(Joi, { recoveryCodes }).id('MfaRecoveryCodes');

export const factorListResponse = Joi.object({
  factors: Joi.array().items(factorResponse).required(),
  recoveryCodesRemaining: Joi.number().integer().min(0).required(),
}).id('MfaFactorList');

export const challengeResponse = succeeded(Joi, {
  mfaRequired: Joi.boolean().valid(true).required(),
  challengeId: Joi.string().guid().required().description('Send to POST /mfa/verify with a code'),
  expiresAt: Joi.string().required().meta(dateTime).description('5 minutes after the password was checked'),
  factors: Joi.array()
    .items(Joi.object({ id: Joi.string().guid().required(), type: Joi.string().valid('totp').required() }))
    .required(),
}).id('MfaChallenge');
