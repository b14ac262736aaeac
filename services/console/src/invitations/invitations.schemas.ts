import { Joi } from '@platform/tenancy';
import { ROLES, type Role } from '../access/roles';

export interface InvitationInput {
  email: string;
  role: Role;
}

export const invitationBody = Joi.object<InvitationInput>({
  email: Joi.string().trim().lowercase().email().max(254).required(),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
});

export const acceptBody = Joi.object<{ token: string }>({
  token: Joi.string().min(10).max(200).required(),
});
