import { Joi } from '@platform/tenancy';
import { ROLES, type Role } from '../access/roles';

export const roleBody = Joi.object<{ role: Role }>({
  role: Joi.string()
    .valid(...ROLES)
    .required(),
});
