import { toIso } from '@platform/tenancy';
import type { NewsItemRow } from './news.repository';

export interface NewsItem {
  id: string;
  title: string;
  description: string;
  url: string;
  publishedAt: string | null;
  source: string;
  category: string;
}

/** Rows become API objects here and nowhere else. */
export const toNewsItem = (row: NewsItemRow): NewsItem => ({
  id: row.id,
  title: row.title,
  description: row.description,
  url: row.url,
  publishedAt: toIso(row.published_at),
  source: row.source,
  category: row.category,
});
