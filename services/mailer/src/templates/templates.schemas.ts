import { Joi, pageSchema } from '@platform/tenancy';

const TEMPLATE_KEY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const MAX_BODY = 256 * 1024;

export interface CreateTemplateInput {
  name: string;
  templateKey: string | null;
  subject: string;
  html: string;
  text: string | null;
}

export type UpdateTemplateInput = Partial<CreateTemplateInput>;

const fields = {
  name: Joi.string().trim().min(1).max(200),
  templateKey: Joi.string().trim().pattern(TEMPLATE_KEY).allow(null).messages({
    'string.pattern.base': 'templateKey may use letters, digits, ".", "_", ":" and "-" (at most 100)',
  }),
  subject: Joi.string().min(1).max(998),
  html: Joi.string().min(1).max(MAX_BODY),
  text: Joi.string().allow('', null).max(MAX_BODY),
};

export const createTemplateSchema = Joi.object<CreateTemplateInput>({
  name: fields.name.required(),
  templateKey: fields.templateKey.default(null),
  subject: fields.subject.required(),
  html: fields.html.required(),
  text: fields.text.default(null),
});

export const updateTemplateSchema = Joi.object<UpdateTemplateInput>({
  name: fields.name,
  templateKey: fields.templateKey,
  subject: fields.subject,
  html: fields.html,
  text: fields.text,
})
  .min(1)
  .messages({ 'object.min': 'Give at least one of name, templateKey, subject, html, text' });

export const previewSchema = Joi.object<{ data: Record<string, unknown> }>({
  data: Joi.object().unknown(true).default({}),
});

export const listTemplatesSchema = Joi.object<{ limit: number; offset: number }>(pageSchema(100));
