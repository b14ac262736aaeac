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
import * as repo from './templates.repository';
import type { CreateTemplateInput, UpdateTemplateInput } from './templates.schemas';

export interface TemplateSummary {
  id: string;
  name: string;
  templateKey: string | null;
  subject: string;
  createdAt: string;
  updatedAt: string;
}

export interface Template extends TemplateSummary {
  html: string;
  text: string | null;
}

/** The one place a template row becomes its API shape. */
function toSummary(row: repo.TemplateSummaryRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    templateKey: row.templateKey,
    subject: row.subject,
    createdAt: toIso(row.createdAt)!,
    updatedAt: toIso(row.updatedAt)!,
  };
}

function toTemplate(row: repo.TemplateRow): Template {
  return { ...toSummary(row), html: row.html, text: row.text };
}

function assertCompiles(input: UpdateTemplateInput): void {
  const problems = templateProblems({ subject: input.subject, html: input.html, text: input.text ?? undefined });
  if (problems.length) throw errors.validation('Template does not compile', problems);
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

  async preview(tenant: Tenant, id: string, data: object): Promise<RenderedEmail> {
    return this.render(await this.require(tenant, id), data);
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
