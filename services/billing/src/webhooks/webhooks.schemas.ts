import { Joi } from '@platform/tenancy';

export const webhookParamsSchema = Joi.object<{ tenant_id: string; project_id: string }>({
  tenant_id: Joi.string().guid().required().description('Tenant id'),
  project_id: Joi.string().guid().required().description('Project id'),
});
