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

// No length cap: any string that is not a live token is an unknown session (401), whatever its size
// (the body limit bounds it).
export const refreshSchema = Joi.object<RefreshInput>({
  refreshToken: Joi.string().required(),
});
