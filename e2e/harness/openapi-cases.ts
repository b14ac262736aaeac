/**
 * Requests derived from a service's OpenAPI document: a plausible body for each operation, then
 * that body with one string (or one free-form object key) replaced by a hostile value. Built from
 * the document, so an operation or field added later is swept without a hand-written case.
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  example?: unknown;
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Names that an object lookup finds on Object.prototype, and strings no UTF-8 can hold. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
export const LONE_SURROGATES = ['\ud800', 'a\udc00b'];

export interface SweepCase {
  method: string;
  path: string;
  query: Record<string, string>;
  /** JSON text (own `__proto__` keys survive only as text). */
  body?: string;
  label: string;
  /** The value replaced one of a closed list (an enum): anything but a 4xx accepted junk. */
  mustRefuse: boolean;
}

type Step = string | number;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const MAX_DEPTH = 6;

function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const name = current.$ref.split('/').pop()!;
    current = doc.components?.schemas?.[name] ?? {};
  }
  if (current.allOf) {
    // The schema's own properties and its parts' (a body with if/then rules keeps its fields).
    const { allOf, ...own } = current;
    return allOf.reduce<Schema>((merged, part) => mergeSchemas(merged, resolve(doc, part)), own);
  }
  return current;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  return {
    ...a,
    ...b,
    properties: { ...a.properties, ...b.properties },
    required: [...(a.required ?? []), ...(b.required ?? [])],
  };
}

const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/**
 * A value the schema accepts, as far as its keywords tell: with every property, or with the
 * required ones only (an optional field's own rule must not hide what another field does).
 */
export function sampleOf(doc: OpenApiDoc, raw: Schema | undefined, depth = 0, requiredOnly = false): unknown {
  const schema = resolve(doc, raw);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return sampleOf(doc, variant, depth, requiredOnly);
  switch (typeOf(schema) ?? (schema.properties ? 'object' : undefined)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array':
      return depth > MAX_DEPTH
        ? []
        : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
            sampleOf(doc, schema.items, depth + 1, requiredOnly),
          );
    case 'object': {
      if (depth > MAX_DEPTH) return {};
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (requiredOnly && !schema.required?.includes(name)) continue;
        out[name] = sampleOf(doc, property, depth + 1, requiredOnly);
      }
      return out;
    }
    default:
      return 'sweep';
  }
}

function sampleString(schema: Schema): string {
  switch (schema.format) {
    case 'email':
      return 'sweep@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/sweep';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'date-time':
      return new Date(Date.now() + 3600_000).toISOString();
    case 'date':
      return '2030-01-01';
    default:
      return 'sweep'.padEnd(schema.minLength ?? 0, 'x');
  }
}

/** Where the body has a string to replace, and where an object takes keys of the caller's choosing. */
function targetsOf(doc: OpenApiDoc, raw: Schema | undefined, requiredOnly: boolean, at: Step[] = [], depth = 0) {
  const strings: { at: Step[]; closed: boolean; format?: string }[] = [];
  const freeKeys: Step[][] = [];
  const schema = resolve(doc, raw);
  if (depth > MAX_DEPTH) return { strings, freeKeys };
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return targetsOf(doc, variant, requiredOnly, at, depth);
  const type = typeOf(schema) ?? (schema.properties ? 'object' : undefined);
  if (type === 'string' || schema.enum?.some((v) => typeof v === 'string'))
    strings.push({ at, closed: Boolean(schema.enum?.length), format: schema.format });
  if (type === 'array') {
    const inner = targetsOf(doc, schema.items, requiredOnly, [...at, 0], depth + 1);
    strings.push(...inner.strings);
    freeKeys.push(...inner.freeKeys);
  }
  if (type === 'object') {
    if (!schema.properties || schema.additionalProperties) freeKeys.push(at);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (requiredOnly && !schema.required?.includes(name)) continue;
      const inner = targetsOf(doc, property, requiredOnly, [...at, name], depth + 1);
      strings.push(...inner.strings);
      freeKeys.push(...inner.freeKeys);
    }
  }
  return { strings, freeKeys };
}

function withValue(base: unknown, at: Step[], value: unknown): unknown {
  if (!at.length) return value;
  const copy = structuredClone(base) as Record<Step, unknown>;
  let parent = copy;
  for (const step of at.slice(0, -1)) parent = parent[step] as Record<Step, unknown>;
  parent[at[at.length - 1]] = value;
  return copy;
}

/** The base with `key` added to the object at `at`, defined as an own property (even `__proto__`). */
function withKey(base: unknown, at: Step[], key: string): unknown {
  const copy = structuredClone(base);
  let target = copy as Record<Step, unknown>;
  for (const step of at) target = target[step] as Record<Step, unknown>;
  if (target === null || typeof target !== 'object') return copy;
  Object.defineProperty(target, key, { value: 'sweep', enumerable: true, configurable: true, writable: true });
  return copy;
}

const label = (at: Step[]) => at.join('.') || '(body)';

interface BodyOperation {
  method: string;
  template: string;
  path: string;
  query: Record<string, string>;
  bodySchema: Schema;
}

/** The operations of the document that take a JSON body, with plausible path and query values. */
function bodyOperations(doc: OpenApiDoc): BodyOperation[] {
  return eachOperation(doc).flatMap(({ method, template, operation, pathWith, baseQuery }) => {
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
    return bodySchema ? [{ method, template, path: pathWith(), query: baseQuery, bodySchema }] : [];
  });
}

function eachOperation(doc: OpenApiDoc) {
  const operations = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const shared = (Array.isArray(item.parameters) ? item.parameters : []) as Parameter[];
    for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
      const operation = item[method] as Operation;
      // An accepted Server-Sent Events stream stays open: its bad input is tested in its service's tests.
      if (JSON.stringify(operation.responses ?? {}).includes('text/event-stream')) continue;
      const parameters = [...shared, ...(operation.parameters ?? [])];
      const pathParams = parameters.filter((p) => p.in === 'path');
      const queryParams = parameters.filter((p) => p.in === 'query');
      const baseQuery = Object.fromEntries(
        queryParams.map((p) => [p.name, String(sampleOf(doc, p.schema))] as const),
      ) as Record<string, string>;
      const pathWith = (name?: string, value?: string) =>
        `/v1${template.replace(/\{([^}]+)\}/g, (_m, param: string) =>
          param === name
            ? percentEncode(value!)
            : encodeURIComponent(String(sampleOf(doc, pathParams.find((p) => p.name === param)?.schema))),
        )}`;
      operations.push({ method, template, operation, pathParams, queryParams, baseQuery, pathWith });
    }
  }
  return operations;
}

/** Every operation of the document with each hostile value in each string and free-form key. */
export function hostileCases(doc: OpenApiDoc, hostile: string[]): SweepCase[] {
  const cases: SweepCase[] = [];
  for (const { method, template, operation, pathParams, queryParams, baseQuery, pathWith } of eachOperation(doc)) {
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
    const baseBody = bodySchema ? sampleOf(doc, bodySchema) : undefined;
    const body = (value: unknown) => (bodySchema ? JSON.stringify(value) : undefined);
    const add = (what: string, path: string, query: Record<string, string>, text?: string, mustRefuse = false) =>
      cases.push({
        method,
        path,
        query,
        body: text,
        label: `${method.toUpperCase()} ${template} ${what}`,
        mustRefuse,
      });

    for (const value of hostile) {
      const shown = JSON.stringify(value);
      for (const param of pathParams)
        add(`path ${param.name}=${shown}`, pathWith(param.name, value), baseQuery, body(baseBody));
      for (const param of queryParams)
        add(`query ${param.name}=${shown}`, pathWith(), { ...baseQuery, [param.name]: value }, body(baseBody));
      if (!bodySchema) continue;
      for (const requiredOnly of [false, true]) {
        const base = requiredOnly ? sampleOf(doc, bodySchema, 0, true) : baseBody;
        const which = requiredOnly ? 'required-only body' : 'body';
        const { strings, freeKeys } = targetsOf(doc, bodySchema, requiredOnly);
        for (const { at, closed } of strings)
          add(`${which} ${label(at)}=${shown}`, pathWith(), baseQuery, body(withValue(base, at, value)), closed);
        for (const at of freeKeys)
          add(`${which} key ${label(at)}[${shown}]`, pathWith(), baseQuery, body(withKey(base, at, value)));
      }
    }
  }
  return cases;
}

/** `{"a":{"a":...1}}`, `depth` objects deep, as JSON text (built as text: no recursion at any depth). */
export const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const PLACEHOLDER = '\u0000sweep-placeholder\u0000';

/**
 * Every free-form object of every operation's body (metadata, data, a schema, tool parameters)
 * holding a value `depth` objects deep: all must be refused.
 */
export function deepCases(doc: OpenApiDoc, depth: number): SweepCase[] {
  return bodyOperations(doc).flatMap(({ method, template, path, query, bodySchema }) => {
    const base = sampleOf(doc, bodySchema);
    return targetsOf(doc, bodySchema, false).freeKeys.map((at) => ({
      method,
      path,
      query,
      body: JSON.stringify(withValue(base, at, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), nestedJson(depth)),
      label: `${method.toUpperCase()} ${template} body ${label(at)} ${depth} deep`,
      mustRefuse: true,
    }));
  });
}

/** Every string of every operation's body that the document says is a URL (`format: uri`) holding `url`: all must be refused. */
export function urlCases(doc: OpenApiDoc, url: string): SweepCase[] {
  return bodyOperations(doc).flatMap(({ method, template, path, query, bodySchema }) => {
    const base = sampleOf(doc, bodySchema);
    return targetsOf(doc, bodySchema, false)
      .strings.filter((target) => target.format === 'uri' || target.format === 'url')
      .map(({ at }) => ({
        method,
        path,
        query,
        body: JSON.stringify(withValue(base, at, url)),
        label: `${method.toUpperCase()} ${template} body ${label(at)}=${JSON.stringify(url)}`,
        mustRefuse: true,
      }));
  });
}

/** Percent-encodes UTF-16 code units one by one, so a lone surrogate becomes its (invalid) UTF-8 bytes. */
function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(ch);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      })
      .join('');
  }
}

/** `?a=1&b=2`, with lone surrogates percent-encoded as their (invalid) UTF-8 bytes. */
export function queryString(query: Record<string, string>): string {
  const pairs = Object.entries(query).map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}
