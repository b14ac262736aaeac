import { Joi, webUrl } from '@platform/tenancy';
import { passwordProblem } from '../passwords/password-hasher';

/** Trimmed and lowercased; any syntactically valid address (no check against a list of TLDs). */
export const emailField = Joi.string()
  .trim()
  .lowercase()
  .max(254)
  .email({ tlds: { allow: false } });

/** A password being set: 8 to 72 bytes of UTF-8 (RESOLUTIONS 3). */
export const newPasswordField = Joi.string()
  .custom((value: string, helpers) => {
    const problem = passwordProblem(value);
    return problem ? helpers.message({ custom: problem }) : value;
  })
  .description('8 to 72 bytes in UTF-8 (bcrypt reads 72 bytes; longer is refused, never truncated); no NUL characters');

/** Free-form key/value object (never an array). */
export const metadataField = Joi.object().unknown(true).description('Free-form key/value object').id('Metadata');

export interface UpdateMeInput {
  phoneNumber?: string | null;
  avatarUrl?: string | null;
  username?: string | null;
  metadata?: Record<string, unknown>;
}

export const updateMeSchema = Joi.object<UpdateMeInput>({
  phoneNumber: Joi.string().trim().min(1).max(64).allow(null),
  avatarUrl: webUrl().allow(null),
  username: Joi.string().trim().min(1).max(128).allow(null),
  metadata: metadataField,
});

export interface DeleteMetadataInput {
  metadata?: Record<string, unknown>;
}

/**
 * `{metadata: {key: null}}` removes `key`; `{metadata: {}}` (or an empty body) removes everything.
 * No Joi default: the Metadata component is one schema wherever it is used (the router fills in `{}`).
 */
export const deleteMetadataSchema = Joi.object<DeleteMetadataInput>({
  metadata: metadataField,
});

export interface LookupInput {
  email: string;
}

export const lookupSchema = Joi.object<LookupInput>({
  email: emailField.required(),
});
