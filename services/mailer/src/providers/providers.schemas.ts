import { createPublicKey } from 'node:crypto';
import { Joi } from '@platform/tenancy';
import { EMAIL_OPTIONS } from '../email-options';
import type { ProviderType } from './providers.repository';

/** Everything a provider's config may hold; sealed as one JSON document at rest. */
export interface ProviderConfig {
  apiKey: string;
  domain?: string;
  region?: 'us' | 'eu';
  fromEmail?: string;
  /** Mailgun: the HTTP webhook signing key that signs delivery events. */
  webhookSigningKey?: string;
  /** SendGrid: the signed event webhook's verification key (ECDSA P-256, base64 DER or PEM). */
  webhookPublicKey?: string;
}

export interface CreateProviderInput {
  name: string;
  type: ProviderType;
  config: ProviderConfig;
  isDefault?: boolean;
  priority: number;
}

/** SPEC.md's placeholders are accepted on input and stored as the real names. */
export const TYPE_ALIASES: Record<string, ProviderType> = {
  mailgun: 'mailgun',
  mail_vendor_a: 'mailgun',
  sendgrid: 'sendgrid',
  mail_vendor_b: 'sendgrid',
};

export function ecPublicKeyOf(value: string) {
  const key = value.includes('-----BEGIN')
    ? createPublicKey(value)
    : createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec') throw new Error('not an EC key');
  return key;
}

const apiKey = Joi.string().trim().min(1).max(500).required();
const fromEmail = Joi.string().trim().email(EMAIL_OPTIONS);

const mailgunConfig = Joi.object<ProviderConfig>({
  apiKey,
  domain: Joi.string().trim().hostname().required(),
  region: Joi.string().valid('us', 'eu'),
  fromEmail,
  webhookSigningKey: Joi.string().trim().min(1).max(500),
});

const sendgridConfig = Joi.object<ProviderConfig>({
  apiKey,
  fromEmail,
  webhookPublicKey: Joi.string()
    .trim()
    .max(4000)
    .custom((value: string, helpers) => {
      try {
        ecPublicKeyOf(value);
        return value;
      } catch {
        return helpers.message({ custom: 'webhookPublicKey must be an ECDSA public key (base64 DER or PEM)' });
      }
    }),
});

const isMailgun = Joi.string().valid('mailgun', 'mail_vendor_a');

export const createProviderSchema = Joi.object<CreateProviderInput>({
  name: Joi.string().trim().min(1).max(200).required(),
  type: Joi.string()
    .valid(...Object.keys(TYPE_ALIASES))
    .required(),
  config: Joi.when('type', {
    is: isMailgun,
    then: mailgunConfig.required(),
    otherwise: sendgridConfig.required(),
  }),
  isDefault: Joi.boolean().default(false),
  priority: Joi.number().integer().min(0).max(1000).default(100),
}).id('ProviderInput');

export interface UpdateProviderInput {
  name?: string;
  isDefault?: true;
  priority?: number;
}

/** A project always has one default once it has a provider: the default moves, it is never unset. */
export const updateProviderSchema = Joi.object<UpdateProviderInput>({
  name: Joi.string().trim().min(1).max(200),
  isDefault: Joi.boolean().valid(true).description('true makes this the default (the previous default stops being it)'),
  priority: Joi.number().integer().min(0).max(1000).description('Failover order: lower first'),
})
  .min(1)
  .messages({ 'object.min': 'Give at least one of name, isDefault, priority' })
  .id('ProviderUpdate');

export const testProviderSchema = Joi.object<{ to: string }>({
  to: Joi.string().trim().email(EMAIL_OPTIONS).required(),
});
