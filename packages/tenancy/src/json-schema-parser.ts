import Ajv, { type ErrorObject } from 'ajv';
import { errors, type ErrorDetail } from './errors';
import { pointerParts } from './json-pointer';
import { assertShallow } from './validation';

/**
 * The platform's own request schemas written in JSON Schema, for a hot route where Joi's
 * interpreter is a large part of the request (ajv compiles each schema to one function).
 * Unknown fields are dropped where a schema says `additionalProperties: false`, as Joi's
 * `stripUnknown` drops them; values are not converted.
 */
const ajv = new Ajv({ allErrors: true, removeAdditional: true, allowUnionTypes: true, strictTypes: false });

function pathOf(error: ErrorObject): string {
  const parts = pointerParts(error.instancePath);
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  return parts.join('.') || '(root)';
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'false schema') return 'is not allowed here';
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  if (error.keyword === 'anyOf') return 'matches none of the forms it may take';
  return error.message ?? 'is invalid';
}

/**
 * One detail per failed rule. An `if` only says that its branch failed, which the branch's own
 * error tells better; an `anyOf` is one detail, not one per form it may take.
 */
function detailsOf(ajvErrors: ErrorObject[] | null | undefined): ErrorDetail[] {
  const all = ajvErrors ?? [];
  const forms = all.filter((error) => error.keyword === 'anyOf').map((error) => `${error.schemaPath}/`);
  return all
    .filter((error) => error.keyword !== 'if' && !forms.some((form) => error.schemaPath.startsWith(form)))
    .map((error) => ({ path: pathOf(error), message: messageOf(error) }));
}

/**
 * Compiles `schema` once; the parser validates a request body in place (dropping unknown
 * fields) and returns it typed, or throws the 400 `parse` throws, with one detail per problem.
 */
export function jsonSchemaParser<T>(schema: object): (input: unknown) => T {
  const validate = ajv.compile(schema);
  return (input) => {
    const body = input ?? {};
    assertShallow(body);
    if (!validate(body)) throw errors.validation('Request validation failed', detailsOf(validate.errors));
    return body as T;
  };
}
