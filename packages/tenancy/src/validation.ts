import Joi from 'joi';
import { errors, type ErrorDetail } from './errors';
import { MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage } from './json-depth';

export { Joi };

const PARSE_OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  stripUnknown: true,
  convert: true,
  errors: { wrap: { label: false } },
};

// Each schema with the options above applied once: passed to validate() instead, joi merges
// and checks them again on every call (about a third of a small schema's validation time).
const withParseOptions = new WeakMap<Joi.Schema, Joi.Schema>();

function prepared<T>(schema: Joi.Schema<T>): Joi.Schema<T> {
  let ready = withParseOptions.get(schema);
  if (!ready) {
    ready = schema.prefs(PARSE_OPTIONS);
    withParseOptions.set(schema, ready);
  }
  return ready as Joi.Schema<T>;
}

/**
 * 400 when `input` nests deeper than MAX_JSON_DEPTH: whatever a field holds is then safe to
 * validate, store as JSON and hand to a worker thread.
 */
export function assertShallow(input: unknown): void {
  const path = tooDeepAt(input, MAX_JSON_DEPTH);
  if (path !== undefined)
    throw errors.validation('Request validation failed', [{ path, message: tooDeepMessage(MAX_JSON_DEPTH) }]);
}

/** Validates input at the edge; returns the typed, converted value or throws a 400 with details. */
export function parse<T>(schema: Joi.Schema<T>, input: unknown): T {
  assertShallow(input);
  const { value, error } = prepared(schema).validate(input ?? {});
  if (error) throw errors.validation('Request validation failed', detailsOf(error));
  return value as T;
}

export function detailsOf(error: Joi.ValidationError): ErrorDetail[] {
  return error.details.map((d) => ({ path: d.path.join('.') || '(root)', message: d.message }));
}

export const MAX_PAGE_SIZE = 100;

export interface Page {
  limit: number;
  offset: number;
}

/** `limit` (default per endpoint, capped at 100) and `offset`; anything else is 400. */
export function pageSchema(defaultLimit: number) {
  return {
    limit: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(defaultLimit),
    offset: Joi.number().integer().min(0).default(0),
  };
}
