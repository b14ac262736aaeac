/** One locale's content; the template's own fields are the default. */
export interface TemplateContent {
  subject: string;
  html: string;
  text: string | null;
}

/** Locale tag (canonical, `pt-BR`) -> that locale's content. */
export type TemplateVariants = Record<string, TemplateContent>;

/** What a template is made of, as the service hands it to the repository. */
export interface TemplateFields {
  name: string;
  templateKey: string | null;
  subject: string;
  html: string;
  text: string | null;
  variants: TemplateVariants;
}
