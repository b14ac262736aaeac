import { Joi, ownEntry } from '@platform/tenancy';
import { PROVIDER_ALIASES, type ProviderType } from '../vendors/vendor-types';

// Accepts the canonical names and the SPEC placeholders; the value becomes the canonical name.
const providerType = Joi.string()
  .required()
  .custom((value: string, helpers) => ownEntry(PROVIDER_ALIASES, value) ?? helpers.error('any.only'))
  .messages({ 'any.only': `providerType must be one of ${Object.keys(PROVIDER_ALIASES).join(', ')}` });

// Only llm_vendor_a (OpenAI) has organisations; sent for the other vendor it is a 400.
const organizationId = Joi.string()
  .trim()
  .min(1)
  .max(200)
  .when('providerType', {
    is: 'openai',
    otherwise: Joi.forbidden().messages({
      'any.unknown': 'organizationId is only accepted for openai (llm_vendor_a)',
    }),
  });

export interface SaveProviderInput {
  providerType: ProviderType;
  apiKey: string;
  organizationId?: string;
}

export const saveProviderSchema = Joi.object<SaveProviderInput>({
  providerType,
  apiKey: Joi.string().trim().min(1).max(500).required(),
  organizationId,
});

export interface TestProviderInput {
  providerType: ProviderType;
  /** When present, this key is tried instead of the stored one (and not stored). */
  apiKey?: string;
  organizationId?: string;
}

export const testProviderSchema = Joi.object<TestProviderInput>({
  providerType,
  apiKey: Joi.string().trim().min(1).max(500),
  organizationId,
});
