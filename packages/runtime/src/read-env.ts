import type Joi from 'joi';

/** Thrown at start-up; main() prints it and exits rather than run misconfigured. */
export class ConfigError extends Error {}

/**
 * Validates a service's settings from its environment once: the converted values (defaults
 * applied), or a ConfigError naming every setting that is wrong.
 */
export function readEnv<T>(schema: Joi.ObjectSchema<T>, env: NodeJS.ProcessEnv, name: string): T {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid ${name} configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return value;
}
