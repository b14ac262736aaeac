/** Pieces every service's OpenAPI 3.1 document shares: the key headers, the bearer, the error envelope. */
import { ERROR_STATUS } from '@platform/tenancy';
import { lintableOperation, lintablePathParameters, lintableSchema } from './openapi-schemas';
import { defaultTag, documentTags, type OpenApiTag } from './openapi-tags';

export type JsonSchema = Record<string, unknown>;

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        // The closed list, so that clients can switch on the code exhaustively.
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        requestId: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: { path: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  },
};

const securitySchemes = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
  secretKey: { type: 'apiKey', in: 'header', name: 'x-secret-key' },
  tenantId: { type: 'apiKey', in: 'header', name: 'x-tenant-id' },
  projectId: { type: 'apiKey', in: 'header', name: 'x-project-id' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
};

/** Security requirement for the four key headers together. */
export const KEYS = [{ apiKey: [], secretKey: [], tenantId: [], projectId: [] }];
/** Security requirement for the bearer alone. */
export const BEARER = [{ bearer: [] }];
/** Security requirement for keys and bearer together. */
export const KEYS_AND_BEARER = [{ apiKey: [], secretKey: [], tenantId: [], projectId: [], bearer: [] }];

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  423: 'Locked',
  425: 'Too early',
  429: 'Rate limited',
  500: 'Server or vendor error',
  502: 'Vendor unreachable',
  503: 'Unavailable',
};

/** Error responses in the common envelope, for the given status codes. */
export function errorResponses(...statuses: number[]): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

/** A JSON response with the given schema. */
export function jsonResponse(description: string, schema: JsonSchema): Record<string, unknown> {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON request body with the given schema. */
export function jsonBody(schema: JsonSchema, required = true): Record<string, unknown> {
  return { required, content: { 'application/json': { schema } } };
}

export interface OpenApiInput {
  title: string;
  description: string;
  paths: Record<string, unknown>;
  schemas?: Record<string, JsonSchema>;
  /** The features' tags; an operation that names no tag takes one from these by path, else its path's first segment. */
  tags?: OpenApiTag[];
  /** Defaults to the platform's own terms (the services are not published under an open licence). */
  license?: { name: string; identifier?: string; url?: string };
}

const PROPRIETARY = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

const pick = (responses: Record<string, unknown> = {}, status: string) =>
  status in responses ? { [status]: responses[status] } : {};

type Operation = {
  security?: Record<string, unknown>[];
  responses?: Record<string, unknown>;
  tags?: string[];
  [key: string]: unknown;
};

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Applies `change` to each operation; a path item's shared `parameters` only get their schemas made lintable. */
function eachOperation(
  paths: Record<string, unknown>,
  change: (op: Operation, path: string) => Operation,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Operation>).map(([key, value]) => [
          key,
          HTTP_METHODS.has(key) ? change(value, path) : key === 'parameters' ? lintablePathParameters(value) : value,
        ]),
      ),
    ]),
  );
}

const operationsOf = (paths: Record<string, unknown>) =>
  Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([key]) => HTTP_METHODS.has(key))
      .map(([, op]) => ({ path, op })),
  );

/** Every operation behind the key headers is also under the per-project rate limit: it may answer 429. */
const withProjectRateLimit = (op: Operation): Operation =>
  op.security?.some((scheme) => 'apiKey' in scheme)
    ? { ...op, responses: { ...op.responses, ...errorResponses(429), ...pick(op.responses, '429') } }
    : op;

const UNAVAILABLE = {
  503: {
    description: 'A database cannot be reached at the moment: retry after the Retry-After header (seconds)',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};

/**
 * Every operation reads or writes a database: while Postgres cannot be reached it answers 503
 * with Retry-After (an operation's own 503 description, if it has one, is kept).
 */
const withUnavailable = (op: Operation): Operation => ({
  ...op,
  responses: { ...op.responses, ...UNAVAILABLE, ...pick(op.responses, '503') },
});

/**
 * The shared HTTP layer reads every request's JSON body before the route: an operation that lists no
 * 4xx of its own still answers 400 to a body that is not JSON and 413 to one over the size limit.
 */
const withBodyRefusals = (op: Operation): Operation =>
  Object.keys(op.responses ?? {}).some((status) => /^4/.test(status))
    ? op
    : { ...op, responses: { ...op.responses, ...errorResponses(400, 413) } };

/** Only the security schemes some operation uses: a declared scheme nothing uses misleads readers and tools. */
function usedSecuritySchemes(paths: Record<string, unknown>): Record<string, unknown> {
  const used = new Set(
    operationsOf(paths).flatMap(({ op }) => (op.security ?? []).flatMap((requirement) => Object.keys(requirement))),
  );
  return Object.fromEntries(Object.entries(securitySchemes).filter(([name]) => used.has(name)));
}

/** A service's OpenAPI 3.1 document: the shared responses added, every operation tagged, schemas in forms tools read. */
export function buildOpenApiDocument(input: OpenApiInput): Record<string, unknown> {
  const declared = input.tags ?? [];
  const paths = eachOperation(input.paths, (op, path) =>
    lintableOperation({
      ...withUnavailable(withProjectRateLimit(withBodyRefusals(op))),
      tags: op.tags?.length ? op.tags : [defaultTag(path, declared)],
    }),
  );
  const used = operationsOf(paths).flatMap(({ path, op }) => (op.tags ?? []).map((tag) => ({ tag, path })));
  const schemas = { Error: errorEnvelopeSchema, ...(input.schemas ?? {}) };
  return {
    openapi: '3.1.0',
    info: {
      title: input.title,
      version: '1.0.0',
      description: input.description,
      license: input.license ?? PROPRIETARY,
    },
    servers: [{ url: '/v1' }],
    tags: documentTags(used, declared),
    paths,
    components: {
      securitySchemes: usedSecuritySchemes(paths),
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, lintableSchema(schema)])),
    },
  };
}
