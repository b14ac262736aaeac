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

export const toSummary = (row: ContentTypeRow): ContentTypeSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  createdAt: toIso(row.createdAt) as string,
  updatedAt: toIso(row.updatedAt) as string,
});

export const toContentType = (row: ContentTypeRow): ContentType => ({ ...toSummary(row), schema: row.schema });
