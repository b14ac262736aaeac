/** The content item's domain types, shared by the repository, the services and other features. */
export type ContentKind = 'blog' | 'faq' | 'page' | 'custom';
export type ContentStatus = 'draft' | 'published' | 'archived';

export interface ContentItemRow {
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
  /** The latest revision's number. */
  revision: number;
  publishAt: Date | null;
  unpublishAt: Date | null;
  /** A pending draft of a published item: the fields readers will see once it is published. */
  draft: DraftFields | null;
  draftPublishAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DraftFields {
  title: string;
  slug: string;
  content: string;
  metadata: Record<string, unknown>;
}
