/**
 * Joi -> OpenAPI 3.1 schema through joi-to-json, plus the few fixes its output needs for the
 * schemas we write (each one below says which gap it closes).
 */
import Joi from 'joi';
import parse from 'joi-to-json';
import type { JsonSchema } from '@platform/tenancy';

/** Component schemas collected from `.id('Name')` while converting; shared by one document. */
export type Components = Record<string, JsonSchema>;

interface Description {
  type?: string;
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description }[];
  patterns?: { schema?: Description; regex?: string; rule: Description }[];
  rules?: { name: string; args?: { limit?: number } }[];
  flags?: { id?: string };
}

const REF = '#/components/schemas/';

/** Converts one Joi schema; schemas named with `.id()` land in `components` and are referenced. */
export function toJsonSchema(
  schema: Joi.Schema,
  components: Components,
  direction: 'request' | 'response',
): JsonSchema {
  const local: Components = {};
  const json = parse(schema, 'open-api-3.1', local) as JsonSchema;
  delete json.schemas;
  patch(schema.describe() as Description, json, local);
  for (const [name, converted] of Object.entries(local)) {
    const fixed = direction === 'request' ? openObjects(converted) : converted;
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(fixed))
      throw new Error(`contract: two different schemas are both named ${name} (Joi .id())`);
    components[name] = fixed;
  }
  return direction === 'request' ? openObjects(json) : json;
}

/**
 * joi-to-json drops what it cannot express from a description: object keys given by a schema
 * (`.pattern(Joi.string(), value)`, only regex keys are converted) and an object's `.min()`/`.max()`
 * key counts. Walks the description beside the output and adds them.
 */
function patch(desc: Description, json: JsonSchema, local: Components, seen = new Set<JsonSchema>()): void {
  const ref =
    typeof json.$ref === 'string' && json.$ref.startsWith(REF) ? local[json.$ref.slice(REF.length)] : undefined;
  const target = ref ?? json;
  if (seen.has(target)) return;
  seen.add(target);
  if (desc.type === 'object') {
    for (const pattern of desc.patterns ?? []) {
      if (pattern.regex !== undefined) continue;
      const properties = (target.properties ?? {}) as Record<string, unknown>;
      const value = toJsonSchema(Joi.build(pattern.rule), local, 'response');
      // A key schema's own limits (e.g. max length) have no JSON Schema home besides propertyNames.
      if (pattern.schema) target.propertyNames = toJsonSchema(Joi.build(pattern.schema), local, 'response');
      target.additionalProperties = value;
      target.properties = properties;
    }
    for (const rule of desc.rules ?? []) {
      if (rule.name === 'min') target.minProperties = rule.args?.limit;
      if (rule.name === 'max') target.maxProperties = rule.args?.limit;
    }
    if (target.properties && Object.keys(target.properties).length === 0) delete target.properties;
    const properties = (target.properties ?? {}) as Record<string, JsonSchema>;
    for (const [key, child] of Object.entries(desc.keys ?? {}))
      if (properties[key]) patch(child, properties[key], local, seen);
  }
  if (desc.type === 'array' && desc.items?.length === 1 && target.items)
    patch(desc.items[0], target.items as JsonSchema, local, seen);
  if (desc.type === 'alternatives') {
    const options = (target.anyOf ?? target.oneOf) as JsonSchema[] | undefined;
    desc.matches?.forEach((match, i) => {
      if (match.schema && options?.[i]) patch(match.schema, options[i], local, seen);
    });
  }
}

/**
 * Request objects: `parse()` strips unknown keys instead of refusing them, so the document does
 * not forbid them either (joi-to-json writes `additionalProperties: false` for Joi's default).
 */
function openObjects(json: JsonSchema): JsonSchema {
  if (Array.isArray(json)) return json.map((item) => openObjects(item as JsonSchema)) as unknown as JsonSchema;
  if (!json || typeof json !== 'object') return json;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = value && typeof value === 'object' ? openObjects(value as JsonSchema) : value;
  }
  return out;
}
