import type { Knex } from 'knex';
import { isUniqueViolation } from '@platform/db';
import { errors, isUuid, type Tenant } from '@platform/tenancy';
import type { ContentValidator } from './content-validation';
import { toContentType, toContentTypeSummary, type ContentType, type ContentTypeSummary } from './content-types.mapper';
import * as repo from './content-types.repository';
import type { CreateContentTypeInput, UpdateContentTypeInput } from './content-types.schemas';
import type { PatternChecker } from './pattern-checker';

export type { ContentType, ContentTypeSummary } from './content-types.mapper';

/** The threads a schema is checked on (built once in `build`): its patterns first, then the whole schema. */
export interface SchemaChecks {
  patterns: PatternChecker;
  validator: ContentValidator;
}

const notFound = () => errors.notFound('Content type');

/**
 * 400 unless the schema compiles. Its patterns are first compiled within their budget
 * (pattern-checker.ts), then the whole schema within the validation budget, both off the main thread.
 */
async function checkSchema(checks: SchemaChecks, tenant: Tenant, schema: Record<string, unknown>): Promise<void> {
  await checks.patterns.check(schema, tenant.projectId);
  await checks.validator.assertCompiles(tenant.projectId, schema);
}

export async function createContentType(
  db: Knex,
  checks: SchemaChecks,
  tenant: Tenant,
  input: CreateContentTypeInput,
): Promise<ContentType> {
  await checkSchema(checks, tenant, input.schema);
  try {
    const row = await repo.insertContentType(db, tenant, {
      name: input.name,
      description: input.description || null,
      schema: input.schema,
    });
    return toContentType(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.conflict(`A content type named '${input.name}' already exists`);
    throw error;
  }
}

export async function listContentTypes(db: Knex, tenant: Tenant): Promise<ContentTypeSummary[]> {
  return (await repo.listContentTypes(db, tenant)).map(toContentTypeSummary);
}

export async function getContentType(db: Knex, tenant: Tenant, id: string): Promise<ContentType> {
  const row = isUuid(id) ? await repo.findContentTypeById(db, tenant, id) : undefined;
  if (!row) throw notFound();
  return toContentType(row);
}

/** Items already stored are not revalidated; the new schema applies from their next write. */
export async function updateContentType(
  db: Knex,
  checks: SchemaChecks,
  tenant: Tenant,
  id: string,
  input: UpdateContentTypeInput,
): Promise<ContentType> {
  if (input.schema) await checkSchema(checks, tenant, input.schema);
  const row = isUuid(id)
    ? await repo.updateContentType(db, tenant, id, {
        description: input.description === undefined ? undefined : input.description || null,
        schema: input.schema,
      })
    : undefined;
  if (!row) throw notFound();
  return toContentType(row);
}

/**
 * The one check of content against a project's type: 400 when the project has no type of
 * this name, when `content` is not JSON or does not match (problems capped), or when the
 * check goes over its budget (content-validation.ts).
 */
export async function validateContent(
  db: Knex,
  validator: ContentValidator,
  tenant: Tenant,
  name: string,
  content: string,
): Promise<void> {
  const row = await repo.findContentTypeByName(db, tenant, name);
  if (!row) {
    throw errors.validation('Unknown content type', [
      { path: 'contentType', message: `no content type named '${name}'` },
    ]);
  }
  await validator.assertValid(tenant.projectId, { id: row.id, name, schema: row.schema }, content);
}
