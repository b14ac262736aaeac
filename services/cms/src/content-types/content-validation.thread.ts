import type { ErrorDetail } from '@platform/tenancy';
// Not the package's index: a validation thread loads this file without the rest of tenancy.
import { MAX_JSON_DEPTH, tooDeepAt } from '@platform/tenancy/src/json-depth';
import { assertRunnable, InvalidSchemaError, schemaErrorDetails, ValidatorCache } from './schema-compiler';

type Schema = Record<string, unknown>;

/** What the main thread asks a validation thread: whether a schema compiles, or whether content matches one. */
export type ValidationRequest =
  | { kind: 'compile'; schema: Schema }
  | { kind: 'validate'; typeId: string; schema: Schema; content: string; maxErrors: number };

export type ValidationReply =
  | { kind: 'valid' }
  | { kind: 'notJson' }
  /** The document nests deeper than MAX_JSON_DEPTH (`path` leads there). */
  | { kind: 'tooDeep'; path: string; maxDepth: number }
  /** The validator threw on this document: the schema cannot be evaluated on it. */
  | { kind: 'unevaluable' }
  /** The first `maxErrors` problems, and how many there were in all. */
  | { kind: 'invalid'; details: ErrorDetail[]; total: number }
  | { kind: 'badSchema'; message: string; details: ErrorDetail[] };

/** A schema ajv refuses, or one it fails on while compiling (a stack overflow on a deep schema). */
function badSchema(error: unknown): ValidationReply {
  if (error instanceof InvalidSchemaError) return { kind: 'badSchema', message: error.message, details: error.details };
  return {
    kind: 'badSchema',
    message: 'schema cannot be compiled',
    details: [{ path: 'schema', message: error instanceof Error ? error.message : String(error) }],
  };
}

function validate(validators: ValidatorCache, request: Extract<ValidationRequest, { kind: 'validate' }>) {
  let document: unknown;
  try {
    document = JSON.parse(request.content);
  } catch {
    return { kind: 'notJson' } as const;
  }
  const path = tooDeepAt(document, MAX_JSON_DEPTH, 3);
  if (path !== undefined) return { kind: 'tooDeep', path, maxDepth: MAX_JSON_DEPTH } as const;
  const check = validators.get(request.typeId, request.schema);
  let valid: boolean;
  try {
    valid = check(document) as boolean;
  } catch {
    // A stored schema (from before a check existed) may loop on some documents: the caller's 400.
    return { kind: 'unevaluable' } as const;
  }
  if (valid) return { kind: 'valid' } as const;
  const errors = check.errors ?? [];
  return {
    kind: 'invalid',
    details: schemaErrorDetails(errors.slice(0, request.maxErrors)),
    total: errors.length,
  } as const;
}

/** A validation thread's handler, with its own compiled validators. */
export function validationHandler(validators: ValidatorCache): (request: ValidationRequest) => ValidationReply {
  return (request) => {
    try {
      if (request.kind === 'compile') {
        assertRunnable(request.schema);
        return { kind: 'valid' };
      }
      return validate(validators, request);
    } catch (error) {
      return badSchema(error);
    }
  };
}
