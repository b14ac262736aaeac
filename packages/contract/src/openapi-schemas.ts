/**
 * Rewrites a document's schemas into forms that OpenAPI tools read, without changing what they
 * accept: linters and generators expect an object wherever a subschema goes, and a name that a
 * condition requires to be declared among the properties of that condition.
 */
type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a boolean subschema is refused by tools: `true` is `{}` and `false` is `{ not: {} }`. */
const CONDITIONS = ['if', 'then', 'else', 'not'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

const asObjectSchema = (value: unknown): unknown => (value === true ? {} : value === false ? { not: {} } : value);

/**
 * One schema, rewritten. Inside a condition (`if`/`then`/`else`/`not` and the lists under them), a
 * required name the branch does not declare gets an unconstrained declaration (`{}`): the branch
 * applies to the object the outer schema describes, so the name is declared there already.
 */
export function lintableSchema(schema: unknown, inCondition = false): unknown {
  if (!isObject(schema)) return schema;
  const out: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CONDITIONS.includes(key)) out[key] = lintableSchema(asObjectSchema(value), true);
    else if (LISTS.includes(key) && Array.isArray(value))
      out[key] = value.map((item) => lintableSchema(asObjectSchema(item), inCondition && key !== 'prefixItems'));
    else if (SINGLES.includes(key)) out[key] = lintableSchema(value);
    else if (MAPS.includes(key) && isObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, lintableSchema(child, key === 'dependentSchemas')]),
      );
    else out[key] = value;
  }
  if (inCondition && Array.isArray(out.required)) {
    const properties = isObject(out.properties) ? { ...out.properties } : {};
    for (const name of out.required as unknown[])
      if (typeof name === 'string' && !(name in properties)) properties[name] = {};
    out.properties = properties;
  }
  return out;
}

const mapValues = (value: unknown, change: (item: unknown) => unknown): unknown =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, change(item)])) : value;

/** A media type map (`content`) with each schema rewritten. */
const lintableContent = (content: unknown) =>
  mapValues(content, (media) =>
    isObject(media) && 'schema' in media ? { ...media, schema: lintableSchema(media.schema) } : media,
  );

const lintableParameters = (parameters: unknown) =>
  Array.isArray(parameters)
    ? parameters.map((p: unknown) => (isObject(p) && 'schema' in p ? { ...p, schema: lintableSchema(p.schema) } : p))
    : parameters;

/** An operation with the schemas of its parameters, body, responses and response headers rewritten. */
export function lintableOperation<T extends Node>(operation: T): T {
  const out: Node = { ...operation };
  if ('parameters' in out) out.parameters = lintableParameters(out.parameters);
  if (isObject(out.requestBody) && 'content' in out.requestBody)
    out.requestBody = { ...out.requestBody, content: lintableContent(out.requestBody.content) };
  out.responses = mapValues(out.responses, (response) => {
    if (!isObject(response)) return response;
    const next: Node = { ...response };
    if ('content' in next) next.content = lintableContent(next.content);
    if ('headers' in next)
      next.headers = mapValues(next.headers, (header) =>
        isObject(header) && 'schema' in header ? { ...header, schema: lintableSchema(header.schema) } : header,
      );
    return next;
  });
  return out as T;
}

/** A path item's own parameters rewritten (its operations go through `lintableOperation`). */
export const lintablePathParameters = lintableParameters;
