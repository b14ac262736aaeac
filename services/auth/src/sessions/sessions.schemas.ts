import { Joi } from '@platform/tenancy';
import { emailField } from '../users/users.schemas';

export interface LoginInput {
  email: string;
  password: string;
}

// Any password up to a sane size is accepted here: one that no account can have simply fails.
export const loginSchema = Joi.object<LoginInput>({
  email: emailField.required(),
  password: Joi.string().max(1024).required(),
});

export interface RefreshInput {
  refreshToken: string;
}

export const refreshSchema = Joi.object<RefreshInput>({
  refreshToken: Joi.string().max(512).required(),
});
