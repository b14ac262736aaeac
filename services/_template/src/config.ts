import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';

/** Settings of this service; the only place that reads its environment. */
export interface TemplateConfig {
  /** Longest note body accepted, in characters. */
  maxBodyLength: number;
}

const envSchema = Joi.object({
  TEMPLATE_MAX_BODY_LENGTH: Joi.number().integer().min(1).max(100_000).default(10_000),
}).unknown(true);

export function loadTemplateConfig(env: NodeJS.ProcessEnv): TemplateConfig {
  const value = readEnv(envSchema, env, 'template');
  return { maxBodyLength: value.TEMPLATE_MAX_BODY_LENGTH };
}
