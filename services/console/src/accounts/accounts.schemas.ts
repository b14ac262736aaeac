import { Joi } from '@platform/tenancy';

/**
 * The bodies are Authentication's (it validates them in full); the console checks only their
 * shape and the fields it reads itself.
 */
export const accountBody = Joi.object<Record<string, unknown>>({
  email: Joi.string().trim().lowercase().email().max(254),
}).unknown(true);

export const signUpBody = accountBody.keys({ email: Joi.string().trim().lowercase().email().max(254).required() });
