import { toIso } from '@platform/tenancy';
import type { ContentTypeRow } from './content-types.repository';

export interface ContentTypeSummary {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContentType extends ContentTypeSummary {
  schema: Record<string, unknown>;
}

/** Rows become API objects here and nowhere else. */
export const toContentTypeSummary = (row: ContentTypeRow): ContentTypeSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  createdAt: toIso(row.created_at) as string,
  updatedAt: toIso(row.updated_at) as string,
});

export const toContentType = (row: ContentTypeRow): ContentType => ({
  ...toContentTypeSummary(row),
  schema: row.schema,
});
