/** The live check of a content type's schema while it is typed: JSON syntax, then the draft-07 meta-schema. */
import { Validator, type Schema } from '@cfworker/json-schema';
import metaSchema from './json-schema-draft-07.json';

export type SchemaCheck = { ok: true; schema: Record<string, unknown> } | { ok: false; message: string };

// No code generation (the page's Content-Security-Policy forbids eval), every error listed.
const meta = new Validator(metaSchema as Schema, '7', false);

/** Where in the text a JSON.parse position is, in the words of an editor (line and column). */
function lineAndColumn(text: string, message: string): string {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined || /line \d+/.test(message)) return message;
  const before = text.slice(0, Number(position)).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}

/** The most specific complaint: the deepest place in the schema, and not a summary of the ones below it. */
function firstError(errors: { instanceLocation: string; error: string; keyword: string }[]): string {
  const specific = errors.filter(
    (error) => !['properties', 'additionalProperties', '$ref', 'allOf', 'anyOf', 'items'].includes(error.keyword),
  );
  const pool = specific.length ? specific : errors;
  const deepest = pool.reduce((best, error) =>
    error.instanceLocation.length > best.instanceLocation.length ? error : best,
  );
  const where = deepest.instanceLocation.replace(/^#/, '') || '/';
  return `Not a valid JSON Schema at ${where}: ${deepest.error.replace(/^Instance/, 'The value')}`;
}

export function checkSchema(text: string): SchemaCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${lineAndColumn(text, (error as Error).message)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: 'The schema must be a JSON object, such as {"type": "object"}.' };
  }
  const result = meta.validate(parsed);
  if (!result.valid) return { ok: false, message: firstError(result.errors) };
  return { ok: true, schema: parsed as Record<string, unknown> };
}
