import type Joi from 'joi';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** A documented response: a description, and the Joi schema of its JSON body (none for an empty body). */
export interface ResponseDefinition {
  description: string;
  schema?: Joi.Schema;
  /** A body that is not JSON, documented as-is by media type (an event stream, say); beside `schema`, an alternative to it. */
  content?: Record<string, { schema: Record<string, unknown> }>;
  /** Response headers, documented as-is. */
  headers?: Record<string, { description?: string; schema: Record<string, unknown> }>;
}

/**
 * One operation of a service: the request parts are the Joi schemas the route validates with,
 * the responses Joi schemas per status; `errors` lists the statuses answered with the common envelope.
 */
export interface OperationDefinition {
  method: HttpMethod;
  /** OpenAPI template, without the /v1 prefix: `/pay/customers/{customer_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Its features; left out, the document's tag for its path (`ContractInput.tags`, else the first segment). */
  tags?: string[];
  /** Security requirements (`KEYS`, `BEARER`, `KEYS_AND_BEARER` from this package; `[]` for none). */
  security: Record<string, string[]>[];
  request?: {
    /** Object schema whose keys are the path template's names. */
    params?: Joi.ObjectSchema;
    query?: Joi.ObjectSchema;
    headers?: Joi.ObjectSchema;
    body?: Joi.Schema;
    /** Defaults to true when a body schema is given. */
    bodyRequired?: boolean;
    /** Documents the body as-is when it is not validated by Joi (a vendor's raw payload). */
    rawBody?: Record<string, unknown>;
  };
  responses: Record<number, ResponseDefinition>;
  errors?: number[];
}

/** Identity, for type checking and inference at the definition site. */
export const defineOperation = (operation: OperationDefinition): OperationDefinition => operation;

/** A response with a JSON body. */
export const json = (description: string, schema: Joi.Schema): ResponseDefinition => ({ description, schema });

/** A successful answer: `success: true` plus the given keys (typed by `T` when given: unknown keys do not compile). */
export const succeeded = <T extends object = Record<string, unknown>>(
  joi: typeof Joi,
  keys: Joi.PartialSchemaMap<T> = {},
): Joi.ObjectSchema<T & { success: true }> =>
  joi.object<T & { success: true }>({ success: joi.valid(true).required(), ...keys } as Joi.PartialSchemaMap<
    T & { success: true }
  >);
