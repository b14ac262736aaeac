import { Joi } from '@platform/tenancy';
import type { SecondFactorInput } from './mfa.service';

const code = Joi.string()
  .pattern(/^\d{6}$/)
  .description('The current 6-digit code of the authenticator app');
const recoveryCode = Joi.string().max(64).description('One of the recovery codes (each works once)');

export const activateSchema = Joi.object<{ code: string }>({ code: code.required() });

/** A fresh second factor: a code or a recovery code (not both; none fails where one is needed). */
export const secondFactorSchema = Joi.object<SecondFactorInput>({ code, recoveryCode }).nand('code', 'recoveryCode');

export const verifySchema = Joi.object<SecondFactorInput & { challengeId: string }>({
  challengeId: Joi.string().max(64).required().description('challengeId of the login answer'),
  code,
  recoveryCode,
}).xor('code', 'recoveryCode');

export const factorIdParams = Joi.object({ id: Joi.string().required().description('Factor id') });
