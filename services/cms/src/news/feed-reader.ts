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
/**
 * Caps on each XML text value, applied while parsing so nothing downstream (rss-parser's
 * snippets, our tag stripping) sees more. A title is plain text stored cut to 500 characters:
 * 2,000 leaves room for whitespace and NULs dropped before the cut. HTML fields become at most
 * 1,000 characters of text; 64 KiB keeps that much text even under heavy markup (inline styles,
 * long links) while bounding the work per item.
 */
const MAX_RAW_TITLE = 2_000;
const MAX_RAW_TEXT = 65_536;
/** Elements rss-parser turns into `…Snippet` fields during parse, with a quadratic regex. */
const SNIPPETED = new Set(['description', 'content', 'content:encoded']);
/** Tags rss-parser's getSnippet turns into line breaks (it matches them as name prefixes). */
const BLOCK_TAG = /\/?(?:h|br|p|ul|ol|li|blockquote|section|table|tr|div)/y;

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

/**
 * Replaces each `<…>` tag with `separator(html, index of its '<')`, as `/<[^>]*>/g` would, in
 * one pass: that regex retries from every '<' of an unclosed run and takes quadratic time on
 * hostile input. A '<' with no '>' after it is text, and so is everything after it.
 */
function replaceTags(html: string, separator: (html: string, at: number) => string): string {
  const parts: string[] = [];
  let from = 0;
  while (from < html.length) {
    const open = html.indexOf('<', from);
    if (open === -1) break;
    const close = html.indexOf('>', open + 1);
    if (close === -1) break;
    parts.push(html.slice(from, open), separator(html, open));
    from = close + 1;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

const stripHtml = (html: string) =>
  replaceTags(html, () => ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** getSnippet's line break for block tags, nothing for the others. */
function snippetSeparator(html: string, at: number): string {
  BLOCK_TAG.lastIndex = at + 1;
  return BLOCK_TAG.test(html) ? '\n' : '';
}

/**
 * xml2js value processor: caps every text value, and strips the tags of the fields rss-parser
 * snippets itself, so its regex never meets a '<' (a leftover one is escaped, and its entity
 * decoding gives it back). Its snippet of such a field then reads as before, in linear time.
 */
export function boundedValue(value: string, element: string): string {
  const capped = value.slice(0, element === 'title' ? MAX_RAW_TITLE : MAX_RAW_TEXT);
  return SNIPPETED.has(element) ? replaceTags(capped, snippetSeparator).replaceAll('<', '&lt;') : capped;
}

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
  const parser = new Parser({ timeout: options.timeoutMs, xml2js: { valueProcessors: [boundedValue] } });
  const parsed = await parser.parseString(xml);
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
