import type { Writable } from 'node:stream';
import winston from 'winston';

export type Logger = winston.Logger;

const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|authorization|cookie|signature|private/i;
const REDACTED = '[REDACTED]';

/** Replaces the values of secret-looking keys, at any depth, before a line is written. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'message') continue;
    info[key] = SECRET_KEY.test(key) ? REDACTED : redact(info[key]);
  }
  return info;
});

/**
 * JSON lines on stdout (or `destination`: tests read what a service logs), one logger per
 * service; the level comes from LOG_LEVEL.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: Writable): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(redactFormat(), winston.format.timestamp(), winston.format.json()),
    transports: [
      destination
        ? new winston.transports.Stream({ stream: destination, silent: level === 'silent' })
        : new winston.transports.Console({ silent: level === 'silent' }),
    ],
  });
}
