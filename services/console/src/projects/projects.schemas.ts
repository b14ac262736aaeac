import { Joi } from '@platform/tenancy';

export const projectBody = Joi.object<{ name: string }>({
  name: Joi.string().trim().min(1).max(100).required(),
});
