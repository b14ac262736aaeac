import type { Knex } from 'knex';
import { errors, isUuid } from '@platform/tenancy';
import { toNewsItem, type NewsItem } from './news.mapper';
import * as repo from './news.repository';
import type { ListNewsQuery } from './news.schemas';

export type { NewsItem } from './news.mapper';

/** Reading the stored news (the refresh job fills it); the same for every project. */
export async function listNews(db: Knex, query: ListNewsQuery): Promise<{ news: NewsItem[] }> {
  return { news: (await repo.listNews(db, query)).map(toNewsItem) };
}

export async function getNews(db: Knex, id: string): Promise<NewsItem> {
  const row = isUuid(id) ? await repo.findNews(db, id) : undefined;
  if (!row) throw errors.notFound('News item');
  return toNewsItem(row);
}
