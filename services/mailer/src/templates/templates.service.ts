import type { Knex } from 'knex';
import { errors, toIso } from '@platform/tenancy';
import { isUniqueViolation } from '@platform/db';
import type { Tenant } from '../shared';
import type { RenderedEmail } from './template-engine';
import type { TemplateRenderer } from './template-budget';
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
    private readonly renderer: TemplateRenderer,
  ) {}

  /** The template and each of its locale variants must compile (within the render budget). */
  private async assertCompiles(tenant: Tenant, input: UpdateTemplateInput): Promise<void> {
    const source = { subject: input.subject, html: input.html, text: input.text ?? undefined };
    const problems = await this.renderer.problemsWithinBudget(tenant.projectId, source);
    for (const [locale, content] of Object.entries(input.variants ?? {})) {
      const variant = { subject: content.subject, html: content.html, text: content.text ?? undefined };
      const found = await this.renderer.problemsWithinBudget(tenant.projectId, variant);
      problems.push(...found.map((p) => ({ ...p, path: `variants.${locale}.${p.path}` })));
    }
    if (problems.length) throw errors.validation('Template does not compile', problems);
  }

  async create(tenant: Tenant, input: CreateTemplateInput): Promise<Template> {
    await this.assertCompiles(tenant, input);
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
    await this.assertCompiles(tenant, input);
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
    return this.render(tenant, forLocale(await this.require(tenant, id), locale), data);
  }

  /** A stored template by id or templateKey, or undefined. */
  async findForSend(db: Knex, tenant: Tenant, idOrKey: string): Promise<repo.TemplateRow | undefined> {
    return repo.findTemplateByIdOrKey(db, tenant, idOrKey);
  }

  /** Renders within the render budget; data a template cannot render, or over budget, is a 400. */
  render(tenant: Tenant, row: repo.TemplateRow, data: object): Promise<RenderedEmail> {
    return this.renderer.renderWithinBudget(tenant.projectId, row, data);
  }

  private async require(tenant: Tenant, id: string): Promise<repo.TemplateRow> {
    const row = await repo.findTemplate(this.db, tenant, id);
    if (!row) throw errors.notFound('Template');
    return row;
  }
}
