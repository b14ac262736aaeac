import { Joi, pageSchema } from '@platform/tenancy';
import { environmentSchema, type Environment } from '../shared/environment';

export type MetadataInput = Record<string, string | number | boolean>;

export interface CustomerInput {
  email?: string;
  name?: string;
  description?: string;
  phone?: string;
  metadata?: MetadataInput;
}

/** Stripe's metadata rules: up to 50 keys (3 are ours) of at most 40 characters, values of at most 500. */
export const metadataSchema = () =>
  Joi.object()
    .pattern(Joi.string().max(40), Joi.alternatives(Joi.string().max(500).allow(''), Joi.number(), Joi.boolean()))
    .max(47)
    .description('Stripe metadata. `tenantId` and `projectId` are set by the service and cannot be overridden.');

const fields = {
  email: Joi.string().trim().email().max(512),
  name: Joi.string().trim().max(256).allow(''),
  description: Joi.string().max(500).allow(''),
  phone: Joi.string().trim().max(20).allow(''),
  metadata: metadataSchema(),
};

export const createCustomerSchema = Joi.object<CustomerInput>(fields).id('CustomerInput');

export const updateCustomerSchema = Joi.object<CustomerInput>(fields)
  .min(1)
  .messages({
    'object.min': 'Send at least one of email, name, description, phone, metadata',
  })
  .id('CustomerUpdateInput');

export const customerIdSchema = Joi.string()
  .trim()
  .min(1)
  .max(255)
  .pattern(/^[A-Za-z0-9_]+$/, 'Stripe id');

export const listCustomersQuerySchema = Joi.object<{ environment: Environment; limit: number; offset: number }>({
  environment: environmentSchema('test'),
  ...pageSchema(10),
});
