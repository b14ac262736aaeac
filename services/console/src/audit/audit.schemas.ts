import { Joi } from '@platform/tenancy';
import type { AuditFilters } from './audit.model';

const filters = {
  projectId: Joi.string().guid(),
  actor: Joi.string().max(254),
  action: Joi.string().max(100),
  from: Joi.date().iso(),
  to: Joi.date().iso(),
};

export const auditQuery = Joi.object<AuditFilters & { limit: number; cursor?: string }>({
  ...filters,
  limit: Joi.number().integer().min(1).max(200).default(50),
  cursor: Joi.string().max(100),
});

/** An export names its time range. */
export const exportQuery = Joi.object<AuditFilters & { from: Date; to: Date }>({
  ...filters,
  from: filters.from.required(),
  to: filters.to.required(),
});
