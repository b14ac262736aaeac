import { dayRangeKeys, Joi, pageSchema, type DayRangeQuery } from '@platform/tenancy';
import { EMAIL_OPTIONS } from '../email-options';
import { localeSchema } from '../templates/templates.schemas';
import { EMAIL_STATUSES, type EmailStatus } from './emails.model';

export type EmailCategory = 'transactional' | 'marketing';

export interface SendEmailInput {
  /** One address, or several (each gets its own email and log row). */
  to: string | string[];
  category: EmailCategory;
  locale?: string;
  subject?: string;
  from?: string;
  html?: string;
  text?: string;
  templateId?: string;
  templateData?: Record<string, unknown>;
}

const email = Joi.string().trim().email(EMAIL_OPTIONS).max(320);

/** The send schema for a recipient limit from configuration. */
export const sendEmailSchema = (maxRecipients: number) =>
  Joi.object<SendEmailInput>({
    to: Joi.alternatives()
      .try(email, Joi.array().items(email.required()).min(1).max(maxRecipients))
      .required()
      .messages({ 'alternatives.match': `to must be an email address or a list of 1 to ${maxRecipients} of them` }),
    category: Joi.string().valid('transactional', 'marketing').default('transactional'),
    locale: localeSchema,
    subject: Joi.string().min(1).max(998),
    from: email,
    html: Joi.string()
      .min(1)
      .max(1024 * 1024),
    text: Joi.string()
      .allow('')
      .max(1024 * 1024),
    templateId: Joi.string().trim().min(1).max(200),
    templateData: Joi.object().unknown(true),
  })
    .xor('html', 'templateId')
    .without('templateId', ['html', 'text'])
    .with('templateData', 'templateId')
    // Without a template the subject cannot come from anywhere else.
    .when(Joi.object({ templateId: Joi.exist() }).unknown(), {
      otherwise: Joi.object({ subject: Joi.required() }),
    })
    .messages({
      'object.missing': 'Give either html (with optional text) or templateId (with optional templateData)',
      'object.xor': 'Give either html or templateId, not both',
    });

/** Idempotency-Key: printable ASCII, as Stripe and Resend take it. */
export const idempotencyKeySchema = Joi.string()
  .pattern(/^[\x21-\x7e]{1,255}$/)
  .messages({ 'string.pattern.base': 'Idempotency-Key must be 1 to 255 printable ASCII characters' });

export const listLogsSchema = Joi.object<{ limit: number; offset: number; status?: EmailStatus }>({
  ...pageSchema(50),
  status: Joi.string().valid(...EMAIL_STATUSES),
});

export const dailyStatsSchema = Joi.object<DayRangeQuery>(dayRangeKeys(30));

export const recipientSchema = Joi.object<{ recipient: string }>({ recipient: email.required() });
export const recipientPageSchema = Joi.object<{ limit: number; offset: number }>(pageSchema(50));
