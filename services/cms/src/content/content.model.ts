/** The content item's domain types, shared by the repository, the services and other features. */
export type ContentKind = 'blog' | 'faq' | 'page' | 'custom';
export type ContentStatus = 'draft' | 'published' | 'archived';

/** A content item as stored (content_items). */
export interface ContentItemRow {
  id: string;
  tenant_id: string;
  project_id: string;
  type: ContentKind;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  content_type: string | null;
  /** The latest revision's number. */
  revision: number;
  publish_at: Date | null;
  unpublish_at: Date | null;
  /** A pending draft of a published item: the fields readers will see once it is published. */
  draft: DraftFields | null;
  draft_publish_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DraftFields {
  title: string;
  slug: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface ContentFilters {
  type?: ContentKind;
  status?: ContentStatus;
  slug?: string;
}

export interface NewContentItem {
  id: string;
  type: ContentKind;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  contentType: string | null;
  publishAt: Date | null;
  unpublishAt: Date | null;
  searchLanguage: string;
}

/** The columns one change may set; what is left out stays as it is. */
export interface ContentChanges {
  title?: string;
  slug?: string;
  content?: string;
  status?: ContentStatus;
  metadata?: Record<string, unknown>;
  publishAt?: Date | null;
  unpublishAt?: Date | null;
  draft?: DraftFields | null;
  draftPublishAt?: Date | null;
  searchLanguage?: string;
}
