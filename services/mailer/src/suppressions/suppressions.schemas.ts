import { Joi, pageSchema } from '@platform/tenancy';
import { EMAIL_OPTIONS } from '../email-options';
import { SUPPRESSION_REASONS, type SuppressionReason, type SuppressionScope } from './suppressions.model';

const email = Joi.string().trim().lowercase().email(EMAIL_OPTIONS).max(320);

export interface AddSuppressionInput {
  email: string;
  reason: SuppressionReason;
  scope: SuppressionScope;
}

export const addSuppressionSchema = Joi.object<AddSuppressionInput>({
  email: email.required(),
  reason: Joi.string()
    .valid(...SUPPRESSION_REASONS)
    .default('manual'),
  scope: Joi.string().valid('all', 'marketing').default('all'),
});

export const listSuppressionsSchema = Joi.object<{ limit: number; offset: number; reason?: SuppressionReason }>({
  ...pageSchema(50),
  reason: Joi.string().valid(...SUPPRESSION_REASONS),
});

export const suppressedEmailSchema = Joi.object<{ email: string }>({ email: email.required() });
