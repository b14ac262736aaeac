import { Joi } from '@platform/tenancy';
import { emailField, metadataField, newPasswordField } from '../users/users.schemas';

export interface RegisterBody {
  email: string;
  password: string;
  /** No Joi default: the Metadata component is one schema wherever it is used (the router fills in `{}`). */
  metadata?: Record<string, unknown>;
}

export const registerSchema = Joi.object<RegisterBody>({
  email: emailField.required(),
  password: newPasswordField.required(),
  metadata: metadataField,
});

/** Read by the handler as it comes (not validated): a header that names no language tag is ignored. */
export const registerHeaders = Joi.object({
  'Accept-Language': Joi.string().description(
    'Kept as metadata.locale (its most preferred language tag) when metadata names no locale',
  ),
});
