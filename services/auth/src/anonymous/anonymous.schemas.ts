import { Joi } from '@platform/tenancy';
import { emailField, metadataField, newPasswordField } from '../users/users.schemas';

export interface AnonymousBody {
  metadata?: Record<string, unknown>;
}

export const anonymousSchema = Joi.object<AnonymousBody>({ metadata: metadataField });

export interface ConvertBody {
  email: string;
  password: string;
}

/** An anonymous user signs up with an e-mail and password, keeping their id. */
export const convertSchema = Joi.object<ConvertBody>({
  email: emailField.required(),
  password: newPasswordField.required(),
});
