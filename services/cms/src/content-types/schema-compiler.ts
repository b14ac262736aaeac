import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { re2Engine, type Re2Regex } from './re2-engine';
import type { ErrorDetail } from '@platform/tenancy';
import { pointerParts } from './json-pointer';

type AjvClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;

/** The JSON Schema draft picks the ajv dialect; without `$schema`, draft-07 (ajv's default). */
function dialectOf(schema: Record<string, unknown>): AjvClass {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return Ajv2020;
  if (declared.includes('2019-09')) return Ajv2019;
  return Ajv;
}

/**
 * A schema that cannot be compiled: the caller's 400, with `details` saying where. Not an
 * AppError, so that a validation thread loads ajv without the whole tenancy package.
 */
export class InvalidSchemaError extends Error {
  constructor(
    message: string,
    readonly details: ErrorDetail[],
  ) {
    super(message);
    this.name = 'InvalidSchemaError';
  }
}

/**
 * Dynamic references (2019-09 `$recursiveRef`, 2020-12 `$dynamicRef`) and their anchors: ajv's
 * implementation is partial (its own notes say `#` is assumed to be the root), a self-reference
 * recurses without end at validation time, and an anchor is looked up among Object.prototype's
 * names (`#toString`). Refused at creation; `$ref` (with `$defs`) covers recursive types.
 */
const DYNAMIC_KEYWORDS = new Set(['$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor']);
/** Keywords whose object maps names to schemas; a name there may be anything, `$dynamicRef` included. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is data, not a schema. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** The first dynamic-reference keyword used in a schema position. Iterative: any depth. */
function dynamicKeywordIn(schema: Record<string, unknown>): string | undefined {
  const stack: unknown[] = [schema];
  while (stack.length) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      stack.push(...current);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [keyword, value] of Object.entries(current)) {
      if (DYNAMIC_KEYWORDS.has(keyword)) return keyword;
      if (DATA.has(keyword) || value === null || typeof value !== 'object') continue;
      if (NAME_MAPS.has(keyword) && !Array.isArray(value)) stack.push(...Object.values(value));
      else stack.push(value);
    }
  }
  return undefined;
}

/**
 * Documents every schema is run on once at creation: a schema whose validator throws on one of
 * them (a reference that loops without consuming the document) cannot validate anything.
 */
const PROBES: unknown[] = [{}, [], null, '', 0, true];

/** The RE2 regexes each validator runs. */
const regexesOf = new WeakMap<ValidateFunction, Re2Regex[]>();

/** False once one of the validator's regexes sits on a failed RE2 instance: compile it again. */
export const isUsable = (validate: ValidateFunction): boolean =>
  (regexesOf.get(validate) ?? []).every((regex) => re2Engine.isUsable(regex));

/**
 * Compiles a tenant's schema in an ajv instance of its own: two projects may use the same
 * `$id`, and a shared instance would also keep every schema ever compiled in memory.
 *
 * `pattern`, `patternProperties` (and so `propertyNames`, `additionalProperties`) run on RE2
 * (linear time), not on JavaScript's backtracking engine: a tenant's `^(a+)+$` must not freeze
 * the event loop for every project. RE2 has no lookaround or backreferences; such a pattern
 * makes the schema invalid (400). The ajv paths that would bypass this engine stay off: see
 * the options below. `format: "regex"` only compiles the string with JavaScript's
 * RegExp (a syntax check, linear), it never runs it. The engine (re2-engine.ts) keeps one
 * tenant from exhausting RE2's memory for the others. RE2 compiles synchronously: a schema
 * sent by a tenant goes through pattern-checker.ts first (content-types.service.ts).
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  if (schema.$async === true) {
    throw new InvalidSchemaError('schema is not supported', [
      { path: 'schema', message: 'asynchronous schemas ($async) are not supported' },
    ]);
  }
  const dynamic = dynamicKeywordIn(schema);
  if (dynamic) {
    throw new InvalidSchemaError('schema is not supported', [
      { path: 'schema', message: `${dynamic} is not supported: use $ref (with $defs) for a recursive type` },
    ]);
  }
  const Dialect = dialectOf(schema);
  const regexes = new Map<string, Re2Regex>();
  // ajv's regExp option, recording what it compiles; `u` always, so classes match code points.
  // ajv asks again at every use of a pattern (each place a `$ref` is inlined, patternProperties
  // again for additionalProperties): each is compiled once, as the pattern check timed it.
  const recordingEngine = Object.assign(
    (pattern: string, flags: string) => {
      const unicodeFlags = flags.includes('u') ? flags : `${flags}u`;
      const key = `${unicodeFlags}/${pattern}`;
      let regex = regexes.get(key);
      if (!regex) {
        regex = re2Engine.compile(pattern, unicodeFlags);
        regexes.set(key, regex);
      }
      return regex;
    },
    { code: 'new RE2' },
  );
  const ajv = new Dialect({
    allErrors: true,
    // Strict mode would test each patternProperties pattern against the `properties` names
    // with `new RegExp` at compile time; allowMatchingProperties keeps that off as well.
    strict: false,
    allowMatchingProperties: true,
    // `$data` is off: `pattern: {$data}` would build the regex from the document with `new RegExp`.
    $data: false,
    validateSchema: true,
    addUsedSchema: false,
    // `required`, `dependentRequired` and `properties` see own properties only: `{}` does not
    // have a `toString` or `constructor` because Object.prototype does.
    ownProperties: true,
    code: { regExp: recordingEngine },
  });
  addFormats(ajv);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (cause) {
    throw new InvalidSchemaError('schema is not a valid JSON Schema', [
      { path: 'schema', message: (cause as Error).message },
    ]);
  }
  regexesOf.set(validate, [...regexes.values()]);
  return validate;
}

/** 400 unless the schema compiles and its validator runs on the simplest documents. */
export function assertRunnable(schema: Record<string, unknown>): void {
  const validate = compileSchema(schema);
  for (const probe of PROBES) {
    try {
      validate(probe);
    } catch (cause) {
      throw new InvalidSchemaError('schema cannot be evaluated', [
        { path: 'schema', message: `validating ${JSON.stringify(probe)} fails: ${(cause as Error).message}` },
      ]);
    }
  }
}

/** One detail per ajv error, with the path inside the content document (`content.price`). */
export function schemaErrorDetails(ajvErrors: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (ajvErrors ?? []).map((e) => {
    const pointer = pointerParts(e.instancePath);
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return { path: ['content', ...pointer].join('.'), message: `${e.message ?? 'is invalid'}${extra}` };
  });
}

/**
 * Compiled validators by content type id, checked against the schema as stored: a type
 * whose schema changed (on any replica), or whose regexes sit on a failed RE2 instance,
 * misses and is recompiled; `forget` frees an entry.
 */
export class ValidatorCache {
  private readonly entries = new Map<string, { version: string; validate: ValidateFunction }>();

  constructor(private readonly maxEntries = 1_000) {}

  get(typeId: string, schema: Record<string, unknown>): ValidateFunction {
    const version = JSON.stringify(schema);
    const cached = this.entries.get(typeId);
    if (cached && cached.version === version && isUsable(cached.validate)) {
      // Re-insert so that the map's order is least recently used first.
      this.entries.delete(typeId);
      this.entries.set(typeId, cached);
      return cached.validate;
    }
    const validate = compileSchema(schema);
    this.entries.delete(typeId);
    this.entries.set(typeId, { version, validate });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return validate;
  }

  forget(typeId: string): void {
    this.entries.delete(typeId);
  }

  get size(): number {
    return this.entries.size;
  }
}
