import { toIso } from '@platform/tenancy';
import type { TemplateVariants } from './templates.model';
import type { TemplateRow, TemplateSummaryRow } from './templates.repository';

/** A template in a list: no content, the locales that have their own variant. */
export interface TemplateSummary {
  id: string;
  name: string;
  templateKey: string | null;
  subject: string;
  /** The locales that have their own variant. */
  locales: string[];
  createdAt: string;
  updatedAt: string;
}

/** A template as the API returns it. */
export interface Template extends TemplateSummary {
  html: string;
  text: string | null;
  variants: TemplateVariants;
}

/** Rows become API objects here and nowhere else. */
export function toTemplateSummary(row: TemplateSummaryRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    templateKey: row.template_key,
    subject: row.subject,
    locales: row.locales,
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}

export function toTemplate(row: TemplateRow): Template {
  const locales = Object.keys(row.variants).sort();
  return { ...toTemplateSummary({ ...row, locales }), html: row.html, text: row.text, variants: row.variants };
}
