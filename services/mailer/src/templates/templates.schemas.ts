import { Joi, pageSchema } from '@platform/tenancy';
import { canonicalLocale, LOCALE_PATTERN } from './locale-variants';
import type { TemplateVariants } from './templates.model';

const TEMPLATE_KEY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const MAX_BODY = 256 * 1024;
const MAX_VARIANTS = 50;

export interface CreateTemplateInput {
  name: string;
  templateKey: string | null;
  subject: string;
  html: string;
  text: string | null;
  variants: TemplateVariants;
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

const variant = Joi.object({
  subject: fields.subject.required(),
  html: fields.html.required(),
  text: fields.text.default(null),
});

/**
 * Locale -> content. Every key must be a locale tag (checked here, since unknown keys would
 * otherwise be stripped without a word); keys are stored in their canonical spelling, and two
 * spellings of one locale are refused.
 */
const variants = Joi.object()
  .pattern(Joi.string(), variant)
  .max(MAX_VARIANTS)
  .custom((value: Record<string, TemplateVariants[string]>, helpers) => {
    const canonical: TemplateVariants = {};
    for (const [tag, content] of Object.entries(value)) {
      const locale = canonicalLocale(tag);
      if (!locale)
        return helpers.message({
          custom: `variants are keyed by locale, e.g. "pt-BR"; "${tag.slice(0, 40)}" is not one`,
        });
      if (Object.hasOwn(canonical, locale))
        return helpers.message({ custom: `variants: "${tag.slice(0, 40)}" repeats the locale ${locale}` });
      canonical[locale] = { ...content, text: content.text === '' ? null : content.text };
    }
    return canonical;
  });

export const createTemplateSchema = Joi.object<CreateTemplateInput>({
  name: fields.name.required(),
  templateKey: fields.templateKey.default(null),
  subject: fields.subject.required(),
  html: fields.html.required(),
  text: fields.text.default(null),
  variants: variants.default({}),
});

export const updateTemplateSchema = Joi.object<UpdateTemplateInput>({
  name: fields.name,
  templateKey: fields.templateKey,
  subject: fields.subject,
  html: fields.html,
  text: fields.text,
  variants,
})
  .min(1)
  .messages({ 'object.min': 'Give at least one of name, templateKey, subject, html, text, variants' })
  .id('TemplateInput');

export const localeSchema = Joi.string().pattern(LOCALE_PATTERN).messages({
  'string.pattern.base': 'locale must be a language tag such as "pt-BR"',
});

export interface PreviewInput {
  data: Record<string, unknown>;
  locale?: string;
  draft?: { subject: string; html: string; text: string | null };
}

export const previewSchema = Joi.object<PreviewInput>({
  data: Joi.object().unknown(true).default({}),
  locale: localeSchema,
  draft: variant.description(
    "Unsaved content to render instead of the stored template's (an editor's live preview); locale is then not used",
  ),
});

export const listTemplatesSchema = Joi.object<{ limit: number; offset: number }>(pageSchema(100));
