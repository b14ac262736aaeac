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

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

export const changePasswordSchema = Joi.object<ChangePasswordInput>({
  currentPassword: Joi.string().max(1024).required(),
  newPassword: newPasswordField.required(),
});
