import { Joi } from '@platform/tenancy';
import type { User, UserLookup } from './users.mapper';

const nullable = (description: string) => Joi.string().allow(null).required().description(description);
const dateTime = { format: 'date-time' };

const userKeys = {
  id: Joi.string().guid().required(),
  email: Joi.string()
    .email()
    .allow(null)
    .required()
    .description('Trimmed and lowercased; unique within the project. Null while the user is anonymous'),
  isAnonymous: Joi.boolean()
    .required()
    .description('Signed in without signing up (POST /anonymous); false once an e-mail or a provider is added'),
  emailVerified: Joi.boolean()
    .required()
    .description('false after registration, true once a verification link was used'),
  phoneNumber: nullable('Set through PATCH /me'),
  phoneVerified: Joi.boolean().required().description('Reset to false when the phone number changes'),
  avatarUrl: Joi.string().uri().allow(null).required().description('http(s) URL, set through PATCH /me'),
  username: nullable('Set through PATCH /me'),
  metadata: Joi.object().unknown(true).required().description('Free-form key/value; PATCH /me merges top-level keys'),
  createdAt: Joi.string().required().meta(dateTime),
  updatedAt: Joi.string().required().meta(dateTime),
  lastLogin: nullable('Time of the last successful login; null before the first').meta(dateTime),
};

/** The user as every endpoint returns it; typed by the mapper's view, so a key it lacks does not compile. */
export const userResponse = Joi.object<User>(userKeys).id('User');

export const userLookupResponse = Joi.object<UserLookup>({
  ...userKeys,
  tenantId: Joi.string().guid().required(),
  projectId: Joi.string().guid().required(),
  isAdmin: Joi.boolean().required(),
  isCoreAccount: Joi.boolean().required(),
}).id('UserLookup');

export const userEnvelopeResponse = Joi.object({ user: userResponse.required() }).id('UserEnvelope');

export const userLookupEnvelopeResponse = Joi.object({ user: userLookupResponse.required() });
