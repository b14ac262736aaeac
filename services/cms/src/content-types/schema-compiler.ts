import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2 } from 're2-wasm';
import { errors, type ErrorDetail } from '@platform/tenancy';

type AjvClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;

/** The JSON Schema draft picks the ajv dialect; without `$schema`, draft-07 (ajv's default). */
function dialectOf(schema: Record<string, unknown>): AjvClass {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return Ajv2020;
  if (declared.includes('2019-09')) return Ajv2019;
  return Ajv;
}

/**
 * `pattern` and `patternProperties` run on RE2 (linear time), not on JavaScript's backtracking
 * engine: a tenant's `^(a+)+$` must not freeze the event loop for every project. RE2 has no
 * lookaround or backreferences; such a pattern makes the schema invalid (400).
 */
const re2Engine = Object.assign(
  (pattern: string, flags: string) => new RE2(pattern, flags.includes('u') ? flags : `${flags}u`),
  {
    code: 'new RE2',
  },
);

/**
 * Compiles a tenant's schema in an ajv instance of its own: two projects may use the same
 * `$id`, and a shared instance would also keep every schema ever compiled in memory.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  if (schema.$async === true) {
    throw errors.validation('schema is not supported', [
      { path: 'schema', message: 'asynchronous schemas ($async) are not supported' },
    ]);
  }
  const Dialect = dialectOf(schema);
  const ajv = new Dialect({
    allErrors: true,
    strict: false,
    validateSchema: true,
    addUsedSchema: false,
    code: { regExp: re2Engine },
  });
  addFormats(ajv);
  try {
    return ajv.compile(schema);
  } catch (cause) {
    throw errors.validation('schema is not a valid JSON Schema', [
      { path: 'schema', message: (cause as Error).message },
    ]);
  }
}

/** One detail per ajv error, with the path inside the content document (`content.price`). */
export function schemaErrorDetails(ajvErrors: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (ajvErrors ?? []).map((e) => {
    const pointer = e.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return { path: ['content', ...pointer].join('.'), message: `${e.message ?? 'is invalid'}${extra}` };
  });
}

/**
 * Compiled validators by content type id, checked against the schema as stored: a type
 * whose schema changed (on any replica) misses and is recompiled; `forget` frees an entry.
 */
export class ValidatorCache {
  private readonly entries = new Map<string, { version: string; validate: ValidateFunction }>();

  constructor(private readonly maxEntries = 1_000) {}

  get(typeId: string, schema: Record<string, unknown>): ValidateFunction {
    const version = JSON.stringify(schema);
    const cached = this.entries.get(typeId);
    if (cached && cached.version === version) {
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
