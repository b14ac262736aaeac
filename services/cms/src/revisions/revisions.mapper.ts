import { toIso } from '@platform/tenancy';
import type { ContentStatus } from '../content/content.model';
import type { RevisionChange } from './revisions.model';
import type { RevisionRow } from './revisions.repository';

export interface Revision {
  contentId: string;
  number: number;
  change: RevisionChange;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** Rows become API objects here and nowhere else. */
export const toRevision = (row: RevisionRow): Revision => ({
  contentId: row.content_id,
  number: row.number,
  change: row.change,
  title: row.title,
  slug: row.slug,
  content: row.content,
  status: row.status,
  metadata: row.metadata,
  createdAt: toIso(row.created_at) as string,
});
