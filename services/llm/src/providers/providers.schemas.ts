import { Joi, ownEntry } from '@platform/tenancy';
import { PROVIDER_ALIASES, type ProviderType } from '../vendors/vendor-types';

const PROVIDER_NAMES = Object.keys(PROVIDER_ALIASES);
const OPENAI_NAMES = PROVIDER_NAMES.filter((name) => PROVIDER_ALIASES[name] === 'openai');

// Accepts the canonical names and the SPEC placeholders; `canonical` below turns them into the canonical name.
const providerType = Joi.string()
  .valid(...PROVIDER_NAMES)
  .required()
  .description('openai (= llm_vendor_a) or anthropic (= llm_vendor_b); responses use the canonical name')
  .messages({ 'any.only': `providerType must be one of ${PROVIDER_NAMES.join(', ')}` });

// Only llm_vendor_a (OpenAI) has organisations; sent for the other vendor it is a 400.
const organizationId = Joi.string()
  .trim()
  .min(1)
  .max(200)
  .when('providerType', {
    is: Joi.valid(...OPENAI_NAMES),
    then: Joi.any(),
    otherwise: Joi.forbidden().messages({
      'any.unknown': 'organizationId is only accepted for openai (llm_vendor_a)',
    }),
  });

// An object rule, not a key rule: a key's valid() match skips its rules, so the alias is mapped once all keys passed.
const canonical = <T extends { providerType: ProviderType }>(value: T): T => ({
  ...value,
  providerType: ownEntry(PROVIDER_ALIASES, value.providerType) ?? value.providerType,
});

export interface SaveProviderInput {
  providerType: ProviderType;
  apiKey: string;
  organizationId?: string;
}

export const saveProviderSchema = Joi.object<SaveProviderInput>({
  providerType,
  apiKey: Joi.string().trim().min(1).max(500).required().description('stored encrypted, never returned'),
  organizationId: organizationId.description('openai only; 400 for anthropic'),
})
  .custom(canonical)
  .id('ProviderInput');

export interface TestProviderInput {
  providerType: ProviderType;
  /** When present, this key is tried instead of the stored one (and not stored). */
  apiKey?: string;
  organizationId?: string;
}

export const testProviderSchema = Joi.object<TestProviderInput>({
  providerType,
  apiKey: Joi.string()
    .trim()
    .min(1)
    .max(500)
    .description('optional: test this key instead of the stored one (it is not stored)'),
  organizationId,
})
  .custom(canonical)
  .id('ProviderTestInput');
