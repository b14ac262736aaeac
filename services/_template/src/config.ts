import { Joi } from '@platform/tenancy';
import { ConfigError } from '@platform/runtime';

/** Settings of this service; the only place that reads its environment. */
export interface TemplateConfig {
  /** Longest note body accepted, in characters. */
  maxBodyLength: number;
}

const envSchema = Joi.object({
  TEMPLATE_MAX_BODY_LENGTH: Joi.number().integer().min(1).max(100_000).default(10_000),
}).unknown(true);

export function loadTemplateConfig(env: NodeJS.ProcessEnv): TemplateConfig {
  const { value, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid template configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return { maxBodyLength: value.TEMPLATE_MAX_BODY_LENGTH };
}
