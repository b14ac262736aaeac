import type { Migration } from '@platform/db';
import { contentTypes } from './0001-content-types';
import { contentItems } from './0002-content-items';
import { news } from './0003-news';
import { history } from './0004-content-history';
import { search } from './0005-content-search';
import { webhooks } from './0006-content-webhooks';

/** The CMS's schema changes, oldest first; never reorder or rename an applied one (databases record `name`). */
export const migrations: Migration[] = [contentTypes, contentItems, news, history, search, webhooks];
