import type { Knex } from 'knex';
import { errors, isUuid, type TenantContext } from '@platform/tenancy';
import * as repo from './content-types.repository';
import { toContentType, toSummary, type ContentType, type ContentTypeSummary } from './content-types.mapper';
import type { CreateContentTypeInput, UpdateContentTypeInput } from './content-types.schemas';
import { isUniqueViolation } from '@platform/db';
import type { PatternChecker } from './pattern-checker';
import type { ContentValidator } from './content-validation';

export type { ContentType, ContentTypeSummary } from './content-types.mapper';

/** Content type definitions and the validators of their schemas. */
export class ContentTypesService {
  constructor(
    private readonly db: Knex,
    private readonly patterns: PatternChecker,
    private readonly validator: ContentValidator,
  ) {}

  async create(tenant: TenantContext, input: CreateContentTypeInput): Promise<ContentType> {
    await this.checkSchema(tenant, input.schema);
    try {
      const row = await repo.insertContentType(this.db, tenant, {
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

  async list(tenant: TenantContext): Promise<ContentTypeSummary[]> {
    return (await repo.listContentTypes(this.db, tenant)).map(toSummary);
  }

  async get(tenant: TenantContext, id: string): Promise<ContentType> {
    const row = isUuid(id) ? await repo.findContentTypeById(this.db, tenant, id) : undefined;
    if (!row) throw errors.notFound('Content type');
    return toContentType(row);
  }

  /** Items already stored are not revalidated; the new schema applies from their next write. */
  async update(tenant: TenantContext, id: string, input: UpdateContentTypeInput): Promise<ContentType> {
    if (input.schema) await this.checkSchema(tenant, input.schema);
    const row = isUuid(id)
      ? await repo.updateContentType(this.db, tenant, id, {
          description: input.description === undefined ? undefined : input.description || null,
          schema: input.schema,
        })
      : undefined;
    if (!row) throw errors.notFound('Content type');
    return toContentType(row);
  }

  /**
   * 400 unless the schema compiles. Its patterns are first compiled within their budget
   * (pattern-checker.ts), then the whole schema within the validation budget, both off the main thread.
   */
  private async checkSchema(tenant: TenantContext, schema: Record<string, unknown>): Promise<void> {
    await this.patterns.check(schema, tenant.projectId);
    await this.validator.assertCompiles(tenant.projectId, schema);
  }

  /**
   * The one check of content against a project's type: 400 when the project has no type of
   * this name, when `content` is not JSON or does not match (problems capped), or when the
   * check goes over its budget (content-validation.ts).
   */
  async validateContent(tenant: TenantContext, name: string, content: string): Promise<void> {
    const row = await repo.findContentTypeByName(this.db, tenant, name);
    if (!row) {
      throw errors.validation('Unknown content type', [
        { path: 'contentType', message: `no content type named '${name}'` },
      ]);
    }
    await this.validator.assertValid(tenant.projectId, { id: row.id, name, schema: row.schema }, content);
  }
}
