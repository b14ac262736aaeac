import { Joi } from '@platform/tenancy';
import { emailField, newPasswordField } from '../users/users.schemas';

export interface EmailInput {
  email: string;
}

export const emailOnlySchema = Joi.object<EmailInput>({
  email: emailField.required(),
});

export interface ResetPasswordInput {
  token: string;
  password: string;
}

export const resetPasswordSchema = Joi.object<ResetPasswordInput>({
  token: Joi.string().max(512).required(),
  password: newPasswordField.required(),
});
