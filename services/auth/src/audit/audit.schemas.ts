import { Joi } from '@platform/tenancy';
import { SECURITY_EVENT_TYPES, type SecurityEventType } from './audit.model';

export interface EventsQuery {
  type?: SecurityEventType[];
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

export const eventsQuerySchema = Joi.object<EventsQuery>({
  type: Joi.string()
    .max(500)
    .custom((value: string, helpers) => {
      const types = value.split(',').map((t) => t.trim());
      const known: readonly string[] = SECURITY_EVENT_TYPES;
      return types.every((t) => known.includes(t)) ? types : helpers.error('any.invalid');
    })
    .description(`Only these types, comma-separated: ${SECURITY_EVENT_TYPES.join(', ')}`),
  from: Joi.date().iso().description('Events at or after this time'),
  to: Joi.date().iso().description('Events before this time'),
  limit: Joi.number().integer().min(1).max(100).default(50),
  cursor: Joi.string().max(200).description('nextCursor of the previous page'),
});

export const userIdParams = Joi.object({ userId: Joi.string().required().description('User id') });
