import Joi from 'joi';

/**
 * `value` parsed by the WHATWG URL parser (the one `fetch`, `new URL` and our webhook sender
 * use) as an absolute http(s) URL, or undefined. A URL a tenant gives is checked with this
 * parser at the edge, so that the code that later uses it never meets one it cannot parse.
 */
export function parseWebUrl(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/**
 * An absolute http(s) URL of at most 2048 characters, as both Joi's RFC 3986 check and the
 * WHATWG parser read it (`https://xn--/` passes the first, not the second): the string is kept
 * as given.
 */
export const webUrl = (): Joi.StringSchema =>
  Joi.string()
    .trim()
    .max(2048)
    .uri({ scheme: ['http', 'https'] })
    .custom((value: string, helpers) => (parseWebUrl(value) ? value : helpers.error('string.uri')));

/** Whether `value` is a browser origin as an `Origin` header carries it: `https://app.example.com[:port]`. */
export function isWebOrigin(value: string): boolean {
  return parseWebUrl(value)?.origin === value;
}
