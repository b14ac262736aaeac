import { toIso } from '@platform/tenancy';
import type { ContentKind, ContentStatus } from './content.model';
import type { ContentItemRow, ContentSummaryRow } from './content.repository';

/** The API shape of an item: live fields, schedule, and whether a draft is pending. */
export interface ContentItem {
  id: string;
  tenantId: string;
  projectId: string;
  type: ContentKind;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  contentType: string | null;
  revision: number;
  publishAt: string | null;
  unpublishAt: string | null;
  createdAt: string;
  updatedAt: string;
  hasDraft: boolean;
}

export interface ContentSummary {
  id: string;
  type: ContentKind;
  title: string;
  slug: string;
  status: ContentStatus;
  publishAt: string | null;
  unpublishAt: string | null;
  createdAt: string;
}

/** Rows become API objects here and nowhere else. Every GET of an item comes here: one object, no copies. */
export function toContentItem(row: ContentItemRow): ContentItem {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    type: row.type,
    title: row.title,
    slug: row.slug,
    content: row.content,
    status: row.status,
    metadata: row.metadata,
    contentType: row.content_type,
    revision: row.revision,
    publishAt: toIso(row.publish_at),
    unpublishAt: toIso(row.unpublish_at),
    createdAt: toIso(row.created_at) as string,
    updatedAt: toIso(row.updated_at) as string,
    hasDraft: row.draft !== null,
  };
}

/** What readers will see once the pending draft is published (the item itself when none is). */
export function toDraftView(row: ContentItemRow): ContentItem {
  if (!row.draft) return toContentItem(row);
  return { ...toContentItem({ ...row, ...row.draft }), publishAt: toIso(row.draft_publish_at) };
}

export const toContentSummary = (row: ContentSummaryRow): ContentSummary => ({
  id: row.id,
  type: row.type,
  title: row.title,
  slug: row.slug,
  status: row.status,
  publishAt: toIso(row.publish_at),
  unpublishAt: toIso(row.unpublish_at),
  createdAt: toIso(row.created_at) as string,
});
