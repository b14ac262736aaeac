import type { Request } from 'express';
import { Joi, parse } from '@platform/tenancy';

/** Stripe's two modes; every Billing endpoint picks one with `?environment=`. */
export type Environment = 'test' | 'live';

export const ENVIRONMENTS: Environment[] = ['test', 'live'];

export const environmentSchema = (fallback: Environment) =>
  Joi.string()
    .valid(...ENVIRONMENTS)
    .default(fallback)
    .description(`Stripe mode whose keys and data are used (default \`${fallback}\`). Any other value is 400.`);

/** Built once, not per request; also the documented query of the routes that read only `environment`. */
export const environmentQuery = {
  test: Joi.object<{ environment: Environment }>({ environment: environmentSchema('test') }),
  live: Joi.object<{ environment: Environment }>({ environment: environmentSchema('live') }),
};

/** The `environment` query parameter (400 when it is neither `test` nor `live`). */
export function environmentOf(req: Request, fallback: Environment = 'test'): Environment {
  return parse(environmentQuery[fallback], { environment: req.query.environment }).environment;
}

/** For rate-limit keys, which are computed before validation: anything but `live` counts as `test`. */
export function environmentKeyOf(req: Request): Environment {
  return req.query.environment === 'live' ? 'live' : 'test';
}
