import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** URL attributes the HTTP and fetch instrumentations set, whose query may hold a token or a signature. */
const URL_ATTRIBUTES = ['http.url', 'http.target', 'url.full', 'url.query'];

const withoutQuery = (value: string): string => {
  const at = value.indexOf('?');
  return at === -1 ? value : `${value.slice(0, at)}?REDACTED`;
};

/**
 * Drops query strings from URL attributes as a span starts (a verification link's token, a
 * signed URL): the instrumentations record whole URLs, and no secret may leave in a span.
 */
export class QueryScrubber implements SpanProcessor {
  onStart(span: Span, _parent: Context): void {
    for (const key of URL_ATTRIBUTES) {
      const value = span.attributes[key];
      if (typeof value === 'string' && value.includes('?')) span.setAttribute(key, withoutQuery(value));
      else if (key === 'url.query' && value !== undefined) span.setAttribute(key, 'REDACTED');
    }
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
