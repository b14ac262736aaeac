import { dayRangeKeys, Joi, pageSchema, type DayRangeQuery, type Page } from '@platform/tenancy';
import type { LogFilter, StatsRange } from './usage.types';

export const LOGS_DEFAULT_LIMIT = 50;

export const logsQuerySchema = Joi.object<Page & LogFilter>({
  ...pageSchema(LOGS_DEFAULT_LIMIT),
  model: Joi.string().trim().min(1).max(200).description('only logs of this requested model'),
  status: Joi.string().valid('success', 'error').description('only logs of this status'),
  from: Joi.date().iso().description('inclusive'),
  to: Joi.date()
    .iso()
    .description('inclusive')
    .when('from', { is: Joi.exist(), then: Joi.date().min(Joi.ref('from')), otherwise: Joi.any() }),
});

export const statsQuerySchema = Joi.object<StatsRange>({
  from: Joi.date().iso().description('inclusive'),
  to: Joi.date()
    .iso()
    .description('inclusive')
    .when('from', { is: Joi.exist(), then: Joi.date().min(Joi.ref('from')), otherwise: Joi.any() }),
});

export const DAILY_DEFAULT_DAYS = 30;
export const DAILY_MAX_DAYS = 366;

/** Whole UTC days, both included; 30 days up to today by default. */
export const dailyQuerySchema = Joi.object<DayRangeQuery>(dayRangeKeys(DAILY_DEFAULT_DAYS));

export const projectPathSchema = Joi.object<{ tenant_id: string; project_id: string }>({
  tenant_id: Joi.string().required().description('must equal x-tenant-id, else 403'),
  project_id: Joi.string().required().description('must equal x-project-id, else 403'),
});
