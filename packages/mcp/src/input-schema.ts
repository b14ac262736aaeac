/** JSON Schema of a tool's input, from an OpenAPI 3.1 operation's parameters and JSON body. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, unknown>[];
}

const COMPONENT_REF = '#/components/schemas/';
// Annotations of OpenAPI that JSON Schema validators do not know; dropped from tool inputs.
const OPENAPI_ONLY = new Set(['example', 'xml', 'externalDocs', 'discriminator']);

/** A copy of `schema` with component references pointing into `$defs`; the names referenced are added to `used`. */
function rewrite(schema: unknown, used: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, used));
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY.has(key)) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
      const name = value.slice(COMPONENT_REF.length);
      used.add(name);
      copy.$ref = `#/$defs/${name}`;
    } else copy[key] = rewrite(value, used);
  }
  return copy;
}

/**
 * `{path and query parameters as properties, body}`: the body under `body` so that a body field
 * can never collide with a parameter's name. Component schemas referenced (transitively) go into `$defs`.
 */
export function inputSchemaOf(
  parameters: OpenApiParameter[],
  requestBody: OpenApiOperation['requestBody'],
  components: Record<string, unknown>,
): JsonSchema {
  const used = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    if (parameter.in === 'cookie') continue;
    const schema = (rewrite(parameter.schema ?? {}, used) as JsonSchema) ?? {};
    properties[parameter.name] = parameter.description ? { ...schema, description: parameter.description } : schema;
    if (parameter.required || parameter.in === 'path') required.push(parameter.name);
  }
  const bodySchema = requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const schema = rewrite(bodySchema, used) as JsonSchema;
    properties.body = requestBody?.description ? { ...schema, description: requestBody.description } : schema;
    if (requestBody?.required) required.push('body');
  }
  const defs: Record<string, unknown> = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in defs) continue;
    const before = new Set(used);
    defs[name] = rewrite(components[name] ?? {}, used);
    for (const added of used) if (!before.has(added)) pending.push(added);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
