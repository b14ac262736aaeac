import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { findOperation, type Parameter } from './openapi-check';

/** The request a test sent, as the test client knows it. */
export interface SentRequest {
  method: string;
  /** Path without the /v1 prefix, query string allowed. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

// Parameters travel as text: coerce them to the documented type before checking, as the services do.
const params = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true, useDefaults: false });
const bodies = new Ajv2020({ strict: false, allErrors: true });
addFormats(params);
addFormats(bodies);
const compiled = new Map([params, bodies].map((ajv) => [ajv, new WeakMap<object, ValidateFunction>()]));

function check(ajv: Ajv2020, schema: object, components: object | undefined, value: unknown): string | undefined {
  const cache = compiled.get(ajv)!;
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile({ allOf: [schema], components });
    cache.set(schema, validate);
  }
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

function pathValues(template: string, path: string): Record<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)');
  const match = new RegExp(`^${pattern}$`).exec(path);
  return Object.fromEntries(names.map((name, i) => [name, match?.[i + 1] ?? '']));
}

/**
 * Throws unless the request is one the service's OpenAPI document allows: the documented path,
 * query and header parameters (required ones present, each value of its schema) and the JSON body.
 * Undocumented query parameters and body keys are not refused: the services strip them.
 */
export function assertRequestMatchesOpenApi(doc: object, sent: SentRequest): void {
  const [rawPath, search = ''] = sent.path.split('?');
  const path = decodeURIComponent(rawPath).replace(/^\/v1(?=\/)/, '');
  const method = sent.method.toLowerCase();
  const found = findOperation(doc, method, path);
  if (!found) throw new Error(`OpenAPI: no operation for ${method.toUpperCase()} ${path}`);
  const where = `OpenAPI: request ${method.toUpperCase()} ${found.template}`;
  const components = (doc as { components?: object }).components;
  const query = { ...Object.fromEntries(new URLSearchParams(search)), ...sent.query };
  const headers = Object.fromEntries(Object.entries(sent.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const values: Record<Parameter['in'], Record<string, string>> = {
    path: pathValues(found.template, path),
    query,
    header: headers,
    cookie: {},
  };
  for (const parameter of found.operation.parameters ?? []) {
    const key = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    const value = values[parameter.in][key];
    if (value === undefined) {
      if (parameter.required)
        throw new Error(`${where}: required ${parameter.in} parameter ${parameter.name} is missing`);
      continue;
    }
    const problem = parameter.schema && check(params, parameter.schema, components, value);
    if (problem) throw new Error(`${where}: ${parameter.in} parameter ${parameter.name}=${value}: ${problem}`);
  }
  const documented = found.operation.requestBody;
  const hasBody = sent.body !== undefined;
  if (!documented) {
    // Some helpers send `{}` with every POST.
    const empty = typeof sent.body === 'object' && sent.body !== null && !Object.keys(sent.body).length;
    if (hasBody && !empty) throw new Error(`${where} sends a body but the document describes none`);
    return;
  }
  if (!hasBody) {
    if (documented.required) throw new Error(`${where}: the documented body is required`);
    return;
  }
  const schema = documented.content?.['application/json']?.schema;
  const problem = schema && check(bodies, schema, components, sent.body);
  if (problem) throw new Error(`${where} body does not match: ${problem}\n${JSON.stringify(sent.body).slice(0, 500)}`);
}
