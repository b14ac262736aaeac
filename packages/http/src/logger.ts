import type { Writable } from 'node:stream';
import winston from 'winston';
import { logTraceFields } from '@platform/telemetry';

export type Logger = winston.Logger;

const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|authorization|cookie|signature|private/i;
const REDACTED = '[REDACTED]';

/**
 * Secrets that can sit inside any text (a database error quoting the value it refused, a vendor
 * echoing the key it rejected, a link in a message): tokens in URLs, JWTs, our and the vendors'
 * key formats, and what Postgres quotes back from the statement.
 */
const SECRET_TEXT: [RegExp, string][] = [
  [/([?&#](?:token|code|key|secret|signature|password|sig)=)[^&\s"'<>]+/gi, `$1${REDACTED}`],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, REDACTED],
  // Webhook secrets are standard base64 (`+`, `/`, `=`) since they follow Standard Webhooks.
  [/\bwhsec_[A-Za-z0-9+/=_-]{8,}/g, REDACTED],
  [/\b(?:sk|pk|rk|rt|whsec|SG|key|xox[a-z])[-_.][A-Za-z0-9_\-.]{8,}/g, REDACTED],
  // Postgres: `Key (column)=(value)` and `...: "value"` in messages and details
  [/(Key \([^)]*\)=\().*?(\)(?: already exists| is not present|$))/g, `$1${REDACTED}$2`],
  [/(: )"(?:[^"\\]|\\.)*"/g, `$1"${REDACTED}"`],
];

/** The text with every secret-looking part replaced. */
export function redactText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Replaces the values of secret-looking keys, at any depth, and secrets inside text, before a line is written. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error)
    return { name: value.name, message: redactText(value.message), stack: value.stack && redactText(value.stack) };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level') continue;
    if (key === 'message') info.message = redact(info.message);
    else info[key] = SECRET_KEY.test(key) ? REDACTED : redact(info[key]);
  }
  return info;
});

/** `trace_id` and `span_id` on a line written during a traced operation (nothing when tracing is off). */
const traceFormat = winston.format((info) => {
  const ids = logTraceFields();
  if (ids) Object.assign(info, ids);
  return info;
});

/**
 * JSON lines on stdout (or `destination`: tests read what a service logs), one logger per
 * service; the level comes from LOG_LEVEL.
 */
export function createLogger(service: string, level = 'info', destination?: Writable): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(redactFormat(), traceFormat(), winston.format.timestamp(), winston.format.json()),
    transports: [
      destination
        ? new winston.transports.Stream({ stream: destination, silent: level === 'silent' })
        : new winston.transports.Console({ silent: level === 'silent' }),
    ],
  });
}
