import { Joi } from '@platform/tenancy';

export const suspendBody = Joi.object<{ reason: string }>({
  reason: Joi.string().trim().min(1).max(500).required(),
});

export const organisationsQuery = Joi.object<{ limit: number; offset: number }>({
  limit: Joi.number().integer().min(1).max(200).default(50),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});
