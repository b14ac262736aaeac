import { Joi } from '@platform/tenancy';
import { emailField, metadataField, newPasswordField } from '../users/users.schemas';
import type { RegisterInput } from './registration.service';

export const registerSchema = Joi.object<RegisterInput>({
  email: emailField.required(),
  password: newPasswordField.required(),
  metadata: metadataField.default({}),
});
