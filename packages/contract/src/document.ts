import type Joi from 'joi';
import { buildOpenApiDocument, errorResponses, jsonResponse, type JsonSchema } from './openapi';
import type { OpenApiTag } from './openapi-tags';
import { toJsonSchema, type Components } from './convert';
import type { OperationDefinition } from './operation';

export interface ContractInput {
  title: string;
  description: string;
  operations: OperationDefinition[];
  /** The service's features: an operation without `tags` takes the tag whose `paths` prefix its path (else its first segment). */
  tags?: OpenApiTag[];
}

interface Described {
  description?: string;
  [key: string]: unknown;
}

/** Each key of a Joi object schema as one OpenAPI parameter; the key's `.description()` is the parameter's. */
function parametersOf(
  where: 'path' | 'query' | 'header',
  schema: Joi.ObjectSchema | undefined,
  components: Components,
) {
  if (!schema) return [];
  const object = toJsonSchema(schema, components, 'request');
  const properties = (object.properties ?? {}) as Record<string, Described>;
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(description ? { description } : {}),
    schema: property,
  }));
}

function operationObject(op: OperationDefinition, components: Components): Record<string, unknown> {
  const request = op.request ?? {};
  const parameters = [
    ...parametersOf('path', request.params, components),
    ...parametersOf('query', request.query, components),
    ...parametersOf('header', request.headers, components),
  ];
  const bodySchema = request.body ? toJsonSchema(request.body, components, 'request') : request.rawBody;
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const json = response.schema
      ? jsonResponse(response.description, toJsonSchema(response.schema, components, 'response'))
      : { description: response.description };
    const content = { ...(json.content as object | undefined), ...response.content };
    responses[status] = {
      ...json,
      ...(Object.keys(content).length ? { content } : {}),
      ...(response.headers ? { headers: response.headers } : {}),
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.tags ? { tags: op.tags } : {}),
    security: op.security,
    ...(parameters.length ? { parameters } : {}),
    ...(bodySchema
      ? {
          requestBody: {
            required: request.bodyRequired ?? true,
            content: { 'application/json': { schema: bodySchema } },
          },
        }
      : {}),
    responses: { ...responses, ...errorResponses(...(op.errors ?? [])) },
  };
}

/** The service's OpenAPI 3.1 document, generated from its operation definitions. */
export function buildContractDocument(input: ContractInput): Record<string, unknown> {
  const components: Components = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of input.operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`contract: ${op.method.toUpperCase()} ${op.path} is defined twice`);
    item[op.method] = operationObject(op, components);
  }
  return buildOpenApiDocument({
    title: input.title,
    description: input.description,
    paths,
    schemas: components as Record<string, JsonSchema>,
    tags: input.tags,
  });
}
