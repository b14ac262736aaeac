import { Joi } from '@platform/tenancy';
import { emailField } from '../users/users.schemas';

export interface OtpRequestInput {
  email: string;
}

export const otpRequestSchema = Joi.object<OtpRequestInput>({ email: emailField.required() });

/** Either the link's token, or the e-mail with the six-digit code. */
export type OtpVerifyInput = { token: string } | { email: string; code: string };

export const otpVerifySchema = Joi.object({
  token: Joi.string().max(512).description('The token of the e-mailed link'),
  email: emailField,
  code: Joi.string()
    .pattern(/^\d{6}$/)
    .description('The six digits of the e-mail, with the e-mail'),
})
  .xor('token', 'code')
  .and('email', 'code');
