import Joi from 'joi';
import { errors, type ErrorDetail } from './errors';

export { Joi };

const PARSE_OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  stripUnknown: true,
  convert: true,
  errors: { wrap: { label: false } },
};

/** Validates input at the edge; returns the typed, converted value or throws a 400 with details. */
export function parse<T>(schema: Joi.Schema<T>, input: unknown): T {
  const { value, error } = schema.validate(input ?? {}, PARSE_OPTIONS);
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
