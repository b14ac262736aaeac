import { Joi } from '@platform/tenancy';

export interface OrganisationInput {
  name: string;
}

export const organisationBody = Joi.object<OrganisationInput>({
  name: Joi.string().trim().min(1).max(100).required(),
});
