import Parser from 'rss-parser';
import type { ParsedNewsItem } from './news.repository';

export interface FeedSource {
  url: string;
  category: string;
}

export interface FeedReadOptions {
  timeoutMs: number;
  maxBytes: number;
}

const ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';
const MAX_TITLE = 500;
const MAX_DESCRIPTION = 1_000;
const MAX_URL = 2_048;

/** Reads the body, refusing documents larger than `maxBytes` without buffering them whole. */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new Error(`feed is larger than ${maxBytes} bytes`);
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`feed is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Trimmed text without NUL characters (which Postgres cannot store); undefined when empty. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.replace(/\u0000/g, '').trim() || undefined;
}

const stripHtml = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1).trimEnd()}…` : value);

function httpUrl(value: unknown): string | undefined {
  const candidate = text(value);
  if (!candidate || candidate.length > MAX_URL) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? candidate : undefined;
  } catch {
    return undefined;
  }
}

function dateOf(value: unknown): Date | null {
  const raw = text(value);
  if (!raw) return null;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Fetches one RSS or Atom feed and maps its entries to news items; throws when the feed fails. */
export async function readFeed(feed: FeedSource, options: FeedReadOptions): Promise<ParsedNewsItem[]> {
  const res = await fetch(feed.url, {
    headers: { accept: ACCEPT, 'user-agent': 'platform-cms-news/1.0' },
    redirect: 'follow',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`feed answered HTTP ${res.status}`);
  }
  const xml = await readCapped(res, options.maxBytes);
  // One parser per document: rss-parser keeps one xml2js parser, which is not re-entrant.
  const parsed = await new Parser({ timeout: options.timeoutMs }).parseString(xml);
  const source = text(parsed.title) ?? new URL(feed.url).hostname;
  const items: ParsedNewsItem[] = [];
  for (const entry of parsed.items) {
    const url = httpUrl(entry.link) ?? httpUrl(entry.guid) ?? httpUrl((entry as { id?: unknown }).id);
    if (!url) continue;
    const summary = text(entry.summary);
    const description = text(entry.contentSnippet) ?? (summary && stripHtml(summary)) ?? text(entry.content) ?? '';
    items.push({
      url,
      title: cut(text(entry.title) ?? url, MAX_TITLE),
      description: cut(stripHtml(description), MAX_DESCRIPTION),
      publishedAt: dateOf(entry.isoDate) ?? dateOf(entry.pubDate),
      source: cut(source, MAX_TITLE),
      category: feed.category,
      feedUrl: feed.url,
    });
  }
  return items;
}
