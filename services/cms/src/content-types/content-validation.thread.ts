import type { ErrorDetail } from '@platform/tenancy';
import { compileSchema, InvalidSchemaError, schemaErrorDetails, ValidatorCache } from './schema-compiler';

type Schema = Record<string, unknown>;

/** What the main thread asks a validation thread: whether a schema compiles, or whether content matches one. */
export type ValidationRequest =
  | { kind: 'compile'; schema: Schema }
  | { kind: 'validate'; typeId: string; schema: Schema; content: string; maxErrors: number };

export type ValidationReply =
  | { kind: 'valid' }
  | { kind: 'notJson' }
  /** The first `maxErrors` problems, and how many there were in all. */
  | { kind: 'invalid'; details: ErrorDetail[]; total: number }
  | { kind: 'badSchema'; message: string; details: ErrorDetail[] };

function badSchema(error: unknown): ValidationReply {
  if (error instanceof InvalidSchemaError) return { kind: 'badSchema', message: error.message, details: error.details };
  throw error;
}

function validate(validators: ValidatorCache, request: Extract<ValidationRequest, { kind: 'validate' }>) {
  let document: unknown;
  try {
    document = JSON.parse(request.content);
  } catch {
    return { kind: 'notJson' } as const;
  }
  const check = validators.get(request.typeId, request.schema);
  if (check(document)) return { kind: 'valid' } as const;
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
        compileSchema(request.schema);
        return { kind: 'valid' };
      }
      return validate(validators, request);
    } catch (error) {
      return badSchema(error);
    }
  };
}
