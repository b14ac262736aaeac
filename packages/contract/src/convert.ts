/**
 * Joi -> OpenAPI 3.1 schema through joi-to-json, plus the few fixes its output needs for the
 * schemas we write (each one below says which gap it closes).
 */
import Joi from 'joi';
import parse from 'joi-to-json';
import type { JsonSchema } from './openapi';

/** Component schemas collected from `.id('Name')` while converting; shared by one document. */
export type Components = Record<string, JsonSchema>;

interface Description {
  type?: string;
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: { schema?: Description; ref?: unknown; is?: Description; then?: Description; otherwise?: Description }[];
  patterns?: { schema?: Description; regex?: string; rule: Description }[];
  rules?: { name: string; args?: { limit?: number } }[];
  flags?: { id?: string; presence?: string };
  allow?: unknown[];
  whens?: { ref?: unknown; then?: Description; otherwise?: Description }[];
}

const REF = '#/components/schemas/';

/**
 * Converts one Joi schema. In a response, schemas named with `.id()` land in `components` and are
 * referenced. A request schema is written out in place: generators (openapi-typescript by default)
 * read a `default` in a component as "always present", which is true of a response but makes a
 * request field required; in place, under the request body or parameter, a default keeps it optional.
 */
export function toJsonSchema(
  schema: Joi.Schema,
  components: Components,
  direction: 'request' | 'response',
): JsonSchema {
  const local: Components = {};
  const json = parse(schema, 'open-api-3.1', local) as JsonSchema;
  delete json.schemas;
  patch(schema.describe() as Description, json, local);
  if (direction === 'request') return openObjects(inlineRefs(json, local, []));
  for (const [name, converted] of Object.entries(local)) addComponent(components, name, converted);
  return json;
}

/** Replaces each reference to a schema of `local` by that schema; a request schema cannot refer to itself. */
function inlineRefs(json: unknown, local: Components, names: string[]): JsonSchema {
  if (Array.isArray(json)) return json.map((item) => inlineRefs(item, local, names)) as unknown as JsonSchema;
  if (!json || typeof json !== 'object') return json as JsonSchema;
  const { $ref, ...rest } = json as JsonSchema;
  if (typeof $ref === 'string' && $ref.startsWith(REF) && local[$ref.slice(REF.length)]) {
    const name = $ref.slice(REF.length);
    if (names.includes(name)) throw new Error(`contract: the request schema ${name} refers to itself`);
    return { ...inlineRefs(local[name], local, [...names, name]), ...inlineRefs(rest, local, names) };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(json)) out[key] = inlineRefs(value, local, names);
  return out;
}

/** Names a schema in the document's components; one name cannot stand for two different schemas. */
function addComponent(components: Components, name: string, schema: JsonSchema): void {
  const existing = components[name];
  if (existing && JSON.stringify(existing) !== JSON.stringify(schema))
    throw new Error(`contract: two different schemas are both named ${name}`);
  components[name] = schema;
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
  if (desc.type === 'alternatives' && typeBranches(desc)) {
    const branches = typeBranches(desc)!.map((branch) => toJsonSchema(Joi.build(branch), local, 'response'));
    for (const key of ['if', 'then', 'else', 'type']) delete target[key];
    target.anyOf = desc.allow?.includes(null) ? [...branches, { type: 'null' }] : branches;
  } else if (desc.type === 'alternatives') {
    const options = (target.anyOf ?? target.oneOf) as JsonSchema[] | undefined;
    desc.matches?.forEach((match, i) => {
      if (match.schema && options?.[i]) patch(match.schema, options[i], local, seen);
    });
    // `.allow(null)` on alternatives comes out as `type: 'null'` beside the options, which then refuse every value.
    if (target.type === 'null' && Array.isArray(target.anyOf)) {
      delete target.type;
      target.anyOf = [...(target.anyOf as JsonSchema[]), { type: 'null' }];
    }
  }
  siblingConditions(desc, target, local);
}

/**
 * The branches of alternatives that choose by the value's own type
 * (`conditional(Joi.string(), { then, otherwise: conditional(Joi.array(), ...) })`), a last
 * `Joi.forbidden()` left out: joi-to-json writes nested if/then/else, which generators read as
 * unknown; each branch holds values of its tested type only, so anyOf the branches is the same.
 */
function typeBranches(desc: Description): Description[] | undefined {
  const branches: Description[] = [];
  for (const match of desc.matches ?? []) {
    const { is, then, otherwise, ref } = match;
    if (!is || !then || ref || Object.keys(is).some((key) => key !== 'type' && key !== 'allow')) return undefined;
    if (then.type !== is.type) return undefined;
    branches.push(then);
    if (!otherwise || otherwise.flags?.presence === 'forbidden') continue;
    const rest = otherwise.type === 'alternatives' ? typeBranches(otherwise) : undefined;
    if (!rest) return undefined;
    branches.push(...rest);
  }
  return branches.length ? branches : undefined;
}

/**
 * `.when('sibling', ...)`: JSON Schema cannot see the sibling. joi-to-json merges a lone branch in as if
 * it always applied, so both branches must be written out; when one of them is a bare `Joi.any()` (no
 * change), the value need only match the base schema, and the `oneOf` of the two branches (which would
 * refuse a value both accept) goes.
 */
function siblingConditions(desc: Description, target: JsonSchema, local: Components): void {
  const whens = (desc.whens ?? []).filter((when) => when.ref);
  if (whens.length === 0) return;
  if (whens.some((when) => !when.then || !when.otherwise))
    throw new Error('contract: a .when() on a sibling key needs both then and otherwise (Joi.any() for no change)');
  const bare = (branch?: Description) => JSON.stringify(branch) === JSON.stringify({ type: 'any' });
  // Branches that differ only in presence (required when the sibling says so) are one schema here,
  // and a oneOf of two equal schemas would refuse every value.
  const options = target.oneOf as JsonSchema[] | undefined;
  const sameOptions = options?.length === 2 && JSON.stringify(options[0]) === JSON.stringify(options[1]);
  if (whens.length === 1 && sameOptions && desc.type === 'any') {
    const [only] = options;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, only);
  } else if (whens.length === 1 && (bare(whens[0].then) || bare(whens[0].otherwise) || sameOptions))
    delete target.oneOf;
  else if (whens.length === 1 && desc.type === 'any') onlyBranch(whens[0], target, local);
}

/**
 * A bare `Joi.when('sibling', { then, otherwise })` with one branch `Joi.forbidden()`: a value
 * present is one the other branch takes. joi-to-json writes every JSON type beside a oneOf of the
 * two, which generators read as unknown; the other branch alone says the same.
 */
function onlyBranch(when: { then?: Description; otherwise?: Description }, target: JsonSchema, local: Components) {
  const allowed = [when.then, when.otherwise].filter((branch) => branch?.flags?.presence !== 'forbidden');
  if (allowed.length !== 1) return;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, toJsonSchema(Joi.build(allowed[0]!), local, 'response'));
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
