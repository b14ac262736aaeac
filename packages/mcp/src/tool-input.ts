import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './input-schema';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The problems of `args` against a tool's input schema (empty when they fit). */
export function inputProblems(schema: JsonSchema, args: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(input)'} ${e.message ?? 'is invalid'}`);
}
