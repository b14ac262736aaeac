import type { Knex } from 'knex';
import { errors } from '@platform/tenancy';
import { isUniqueViolation } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { RenderedEmail } from './template-engine';
import type { StoredTemplate, TemplateRenderer } from './template-budget';
import { pickLocale } from './locale-variants';
import { toTemplate, toTemplateSummary, type Template } from './templates.mapper';
import * as repo from './templates.repository';
import type { CreateTemplateInput, PreviewInput, UpdateTemplateInput } from './templates.schemas';

/** A stored template as sends and auth emails use it. */
export type TemplateForSend = repo.TemplateRow;

/**
 * The template as it renders for `locale`: the best variant's content (exact, then language,
 * then default), under a cache identity of its own so each variant is compiled once.
 */
export function forLocale(row: repo.TemplateRow, locale: string | null | undefined): StoredTemplate {
  const chosen = pickLocale(Object.keys(row.variants), locale);
  // Every stored variant has all three fields (the schema defaults text to null).
  const content = chosen ? row.variants[chosen] : row;
  return {
    id: chosen ? `${row.id}:${chosen}` : row.id,
    updatedAt: row.updated_at,
    subject: content.subject,
    html: content.html,
    text: content.text,
  };
}

const emptyToNull = (text: string | null | undefined) => (text === '' ? null : text);

function duplicateKey(error: unknown): never {
  if (isUniqueViolation(error))
    throw errors.conflict('A template with this templateKey already exists in this project');
  throw error;
}

/** The template and each of its locale variants must compile (within the render budget). */
async function assertCompiles(renderer: TemplateRenderer, tenant: Tenant, input: UpdateTemplateInput): Promise<void> {
  const source = { subject: input.subject, html: input.html, text: input.text ?? undefined };
  const problems = await renderer.problemsWithinBudget(tenant.projectId, source);
  for (const [locale, content] of Object.entries(input.variants ?? {})) {
    const variant = { subject: content.subject, html: content.html, text: content.text ?? undefined };
    const found = await renderer.problemsWithinBudget(tenant.projectId, variant);
    problems.push(...found.map((p) => ({ ...p, path: `variants.${locale}.${p.path}` })));
  }
  if (problems.length) throw errors.validation('Template does not compile', problems);
}

async function requireTemplate(db: Knex, tenant: Tenant, id: string): Promise<repo.TemplateRow> {
  const row = await repo.findTemplate(db, tenant, id);
  if (!row) throw errors.notFound('Template');
  return row;
}

export async function createTemplate(
  db: Knex,
  renderer: TemplateRenderer,
  tenant: Tenant,
  input: CreateTemplateInput,
): Promise<Template> {
  await assertCompiles(renderer, tenant, input);
  const row = await repo
    .insertTemplate(db, tenant, { ...input, text: emptyToNull(input.text) ?? null })
    .catch(duplicateKey);
  return toTemplate(row);
}

export async function listTemplates(db: Knex, tenant: Tenant, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listTemplates(db, tenant, page);
  return { templates: rows.map(toTemplateSummary), total, limit: page.limit, offset: page.offset };
}

export async function getTemplate(db: Knex, tenant: Tenant, id: string): Promise<Template> {
  return toTemplate(await requireTemplate(db, tenant, id));
}

export async function updateTemplate(
  db: Knex,
  renderer: TemplateRenderer,
  tenant: Tenant,
  id: string,
  input: UpdateTemplateInput,
): Promise<Template> {
  await assertCompiles(renderer, tenant, input);
  const row = await repo
    .updateTemplate(db, tenant, id, { ...input, text: emptyToNull(input.text) })
    .catch(duplicateKey);
  if (!row) throw errors.notFound('Template');
  return toTemplate(row);
}

export async function removeTemplate(db: Knex, tenant: Tenant, id: string): Promise<void> {
  if (!(await repo.deleteTemplate(db, tenant, id))) throw errors.notFound('Template');
}

export async function previewTemplate(
  db: Knex,
  renderer: TemplateRenderer,
  tenant: Tenant,
  id: string,
  input: PreviewInput,
): Promise<RenderedEmail> {
  const row = await requireTemplate(db, tenant, id);
  if (!input.draft) return renderTemplate(renderer, tenant, forLocale(row, input.locale), input.data);
  // A draft is not stored, so it is not known to compile. An editor previews on every pause in
  // typing: one trip to the render thread when it renders, a second only to name a failure's field.
  const draft = { ...input.draft, text: input.draft.text || null };
  try {
    return await renderer.renderWithinBudget(tenant.projectId, draft, input.data);
  } catch (error) {
    const problems = await renderer.problemsWithinBudget(tenant.projectId, draft);
    if (!problems.length) throw error;
    throw errors.validation(
      'Template does not compile',
      problems.map((problem) => ({ ...problem, path: `draft.${problem.path}` })),
    );
  }
}

/** A stored template by id or templateKey, or undefined. */
export async function findTemplateForSend(
  db: Knex,
  tenant: Tenant,
  idOrKey: string,
): Promise<TemplateForSend | undefined> {
  return repo.findTemplateByIdOrKey(db, tenant, idOrKey);
}

/** Renders within the render budget; data a template cannot render, or over budget, is a 400. */
export function renderTemplate(
  renderer: TemplateRenderer,
  tenant: Tenant,
  template: StoredTemplate,
  data: object,
): Promise<RenderedEmail> {
  return renderer.renderWithinBudget(tenant.projectId, template, data);
}
