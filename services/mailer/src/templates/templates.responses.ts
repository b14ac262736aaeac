import { Joi } from '@platform/tenancy';
import type { RenderedEmail } from './template-engine';
import type { Template, TemplateSummary } from './templates.mapper';

const dateTime = () => Joi.string().meta({ format: 'date-time' });
const nullable = () => Joi.string().allow(null);

export const templateContentResponse = Joi.object({
  subject: Joi.string().min(1).max(998).required(),
  html: Joi.string().min(1).required(),
  text: nullable(),
}).id('TemplateContent');

export const templateVariantsResponse = Joi.object()
  .pattern(Joi.string().pattern(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/), templateContentResponse)
  .description(
    "Content per locale (BCP 47 tag such as pt-BR, stored in canonical case); the template's own subject/html/text are the default. " +
      'A send with locale uses the exact locale, else one of the same language (the bare language first), else the default. At most 50.',
  )
  .id('TemplateVariants');

const summaryKeys = {
  id: Joi.string().required(),
  name: Joi.string().required(),
  templateKey: Joi.string().allow(null).required(),
  subject: Joi.string().required(),
  locales: Joi.array().items(Joi.string()).description('Locales with their own variant'),
  createdAt: dateTime().required(),
  updatedAt: dateTime().required(),
};

export const templateSummaryResponse = Joi.object<TemplateSummary>(summaryKeys).id('TemplateSummary');

export const templateResponse = Joi.object<Template>({
  ...summaryKeys,
  html: Joi.string().required(),
  text: nullable().required(),
  variants: templateVariantsResponse.required(),
}).id('Template');

export const templateListResponse = Joi.object({
  templates: Joi.array().items(templateSummaryResponse).required(),
  total: Joi.number().integer(),
  limit: Joi.number().integer(),
  offset: Joi.number().integer(),
});

export const renderedResponse = Joi.object<RenderedEmail>({
  subject: Joi.string().required(),
  html: Joi.string().required(),
  text: nullable().required(),
}).id('Rendered');
