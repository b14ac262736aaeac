import type { Knex } from 'knex';
import { errors, isUuid, toIso } from '@platform/tenancy';
import * as repo from './news.repository';
import type { NewsItemRow } from './news.repository';
import type { ListNewsQuery } from './news.schemas';

export interface NewsItem {
  id: string;
  title: string;
  description: string;
  url: string;
  publishedAt: string | null;
  source: string;
  category: string;
}

const toNewsItem = (row: NewsItemRow): NewsItem => ({
  id: row.id,
  title: row.title,
  description: row.description,
  url: row.url,
  publishedAt: toIso(row.publishedAt),
  source: row.source,
  category: row.category,
});

/** Reading the stored news; the refresh job fills it. */
export class NewsService {
  constructor(private readonly db: Knex) {}

  async list(query: ListNewsQuery): Promise<{ news: NewsItem[] }> {
    return { news: (await repo.listNews(this.db, query)).map(toNewsItem) };
  }

  async get(id: string): Promise<NewsItem> {
    const row = isUuid(id) ? await repo.findNews(this.db, id) : undefined;
    if (!row) throw errors.notFound('News item');
    return toNewsItem(row);
  }
}
