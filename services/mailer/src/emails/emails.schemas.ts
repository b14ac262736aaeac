import { Joi, pageSchema } from '@platform/tenancy';
import { EMAIL_OPTIONS } from '../shared';
import { EMAIL_STATUSES, type EmailStatus } from './logs.repository';

export interface SendEmailInput {
  to: string;
  subject?: string;
  from?: string;
  html?: string;
  text?: string;
  templateId?: string;
  templateData?: Record<string, unknown>;
}

const email = Joi.string().trim().email(EMAIL_OPTIONS).max(320);

export const sendEmailSchema = Joi.object<SendEmailInput>({
  to: email.required(),
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

export const listLogsSchema = Joi.object<{ limit: number; offset: number; status?: EmailStatus }>({
  ...pageSchema(50),
  status: Joi.string().valid(...EMAIL_STATUSES),
});

export const recipientSchema = Joi.object<{ recipient: string }>({ recipient: email.required() });
export const recipientPageSchema = Joi.object<{ limit: number; offset: number }>(pageSchema(50));
