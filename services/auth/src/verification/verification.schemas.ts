import { Joi } from '@platform/tenancy';

export interface VerifyEmailInput {
  token: string;
}

export const verifyEmailSchema = Joi.object<VerifyEmailInput>({
  token: Joi.string().max(512).required(),
});
