import { toIso } from '@platform/tenancy';
import type { ContentItemRow, ContentSummaryRow } from './content.repository';

/** The API shape of an item: live fields, schedule, and whether a draft is pending. */
export type ContentItem = Omit<
  ContentItemRow,
  'createdAt' | 'updatedAt' | 'publishAt' | 'unpublishAt' | 'draft' | 'draftPublishAt'
> & {
  publishAt: string | null;
  unpublishAt: string | null;
  hasDraft: boolean;
  createdAt: string;
  updatedAt: string;
};

export type ContentSummary = Omit<ContentSummaryRow, 'createdAt' | 'publishAt' | 'unpublishAt'> & {
  publishAt: string | null;
  unpublishAt: string | null;
  createdAt: string;
};

export function toContentItem(row: ContentItemRow): ContentItem {
  const { draft, draftPublishAt, ...live } = row;
  void draftPublishAt;
  return {
    ...live,
    publishAt: toIso(row.publishAt),
    unpublishAt: toIso(row.unpublishAt),
    hasDraft: draft !== null,
    createdAt: toIso(row.createdAt) as string,
    updatedAt: toIso(row.updatedAt) as string,
  };
}

/** What readers will see once the pending draft is published (the item itself when none is). */
export function toDraftView(row: ContentItemRow): ContentItem {
  if (!row.draft) return toContentItem(row);
  return { ...toContentItem({ ...row, ...row.draft }), publishAt: toIso(row.draftPublishAt) };
}

export const toSummary = (row: ContentSummaryRow): ContentSummary => ({
  ...row,
  publishAt: toIso(row.publishAt),
  unpublishAt: toIso(row.unpublishAt),
  createdAt: toIso(row.createdAt) as string,
});
