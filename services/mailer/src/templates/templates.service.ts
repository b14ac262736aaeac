import type { Knex } from 'knex';
import { errors, toIso } from '@platform/tenancy';
import { isUniqueViolation } from '@platform/db';
import type { Tenant } from '../shared';
import {
  safeRender,
  templateProblems,
  TemplateCache,
  TemplateRenderError,
  type RenderedEmail,
} from './template-engine';
import { pickLocale } from './locale-variants';
import * as repo from './templates.repository';
import type { CreateTemplateInput, UpdateTemplateInput } from './templates.schemas';

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

export interface Template extends TemplateSummary {
  html: string;
  text: string | null;
  variants: repo.TemplateVariants;
}

/** The one place a template row becomes its API shape. */
function toSummary(row: repo.TemplateSummaryRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    templateKey: row.templateKey,
    subject: row.subject,
    locales: row.locales,
    createdAt: toIso(row.createdAt)!,
    updatedAt: toIso(row.updatedAt)!,
  };
}

function toTemplate(row: repo.TemplateRow): Template {
  const locales = Object.keys(row.variants).sort();
  return { ...toSummary({ ...row, locales }), html: row.html, text: row.text, variants: row.variants };
}

function assertCompiles(input: UpdateTemplateInput): void {
  const problems = templateProblems({ subject: input.subject, html: input.html, text: input.text ?? undefined });
  for (const [locale, content] of Object.entries(input.variants ?? {})) {
    const found = templateProblems({ subject: content.subject, html: content.html, text: content.text ?? undefined });
    problems.push(...found.map((p) => ({ ...p, path: `variants.${locale}.${p.path}` })));
  }
  if (problems.length) throw errors.validation('Template does not compile', problems);
}

/**
 * The template as it renders for `locale`: the best variant's content (exact, then language,
 * then default), under a cache identity of its own so each variant is compiled once.
 */
export function forLocale(row: repo.TemplateRow, locale: string | null | undefined): repo.TemplateRow {
  const chosen = pickLocale(Object.keys(row.variants), locale);
  if (!chosen) return row;
  return { ...row, ...row.variants[chosen], id: `${row.id}:${chosen}` };
}

const emptyToNull = (text: string | null | undefined) => (text === '' ? null : text);

function duplicateKey(error: unknown): never {
  if (isUniqueViolation(error))
    throw errors.conflict('A template with this templateKey already exists in this project');
  throw error;
}

export class TemplatesService {
  constructor(
    private readonly db: Knex,
    readonly cache: TemplateCache,
  ) {}

  async create(tenant: Tenant, input: CreateTemplateInput): Promise<Template> {
    assertCompiles(input);
    const row = await repo
      .insertTemplate(this.db, tenant, { ...input, text: emptyToNull(input.text) ?? null })
      .catch(duplicateKey);
    return toTemplate(row);
  }

  async list(tenant: Tenant, page: { limit: number; offset: number }) {
    const { rows, total } = await repo.listTemplates(this.db, tenant, page);
    return { templates: rows.map(toSummary), total, limit: page.limit, offset: page.offset };
  }

  async get(tenant: Tenant, id: string): Promise<Template> {
    return toTemplate(await this.require(tenant, id));
  }

  async update(tenant: Tenant, id: string, input: UpdateTemplateInput): Promise<Template> {
    assertCompiles(input);
    const row = await repo
      .updateTemplate(this.db, tenant, id, { ...input, text: emptyToNull(input.text) })
      .catch(duplicateKey);
    if (!row) throw errors.notFound('Template');
    return toTemplate(row);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    if (!(await repo.deleteTemplate(this.db, tenant, id))) throw errors.notFound('Template');
  }

  async preview(tenant: Tenant, id: string, data: object, locale?: string): Promise<RenderedEmail> {
    return this.render(forLocale(await this.require(tenant, id), locale), data);
  }

  /** A stored template by id or templateKey, or undefined. */
  async findForSend(db: Knex, tenant: Tenant, idOrKey: string): Promise<repo.TemplateRow | undefined> {
    return repo.findTemplateByIdOrKey(db, tenant, idOrKey);
  }

  /** Renders from the compiled-template cache; data a template cannot render is a 400. */
  render(row: repo.TemplateRow, data: object): RenderedEmail {
    try {
      return safeRender(this.cache, row, data);
    } catch (error) {
      if (error instanceof TemplateRenderError) {
        throw errors.validation('Template could not be rendered with this data', [
          { path: 'templateData', message: error.message },
        ]);
      }
      throw error;
    }
  }

  private async require(tenant: Tenant, id: string): Promise<repo.TemplateRow> {
    const row = await repo.findTemplate(this.db, tenant, id);
    if (!row) throw errors.notFound('Template');
    return row;
  }
}
