import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';

interface ResponseLike {
  status: number;
  body: unknown;
  req: { method: string; path: string };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: object;
}

export interface DocOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> };
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

type Doc = {
  paths: Record<string, Record<string, DocOperation>>;
  components?: object;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** Finds the operation for a request path; literal paths win over templated ones. */
export function findOperation(
  doc: object,
  method: string,
  path: string,
): { template: string; operation: DocOperation } | undefined {
  const paths = (doc as Doc).paths;
  const templates = Object.keys(paths).sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const template of templates) {
    if (templateMatches(template, path) && paths[template][method])
      return { template, operation: paths[template][method] };
  }
  return undefined;
}

/**
 * Throws unless the response's status is documented for its operation in the service's
 * OpenAPI document and its body matches the documented schema.
 */
export function assertMatchesOpenApi(doc: object, sent: ResponseLike | Response): void {
  // supertest keeps the request it sent on the response; its typings leave that out.
  const res = sent as unknown as ResponseLike;
  const method = res.req.method.toLowerCase();
  const path = decodeURIComponent(res.req.path.split('?')[0]).replace(/^\/v1(?=\/)/, '');
  const found = findOperation(doc, method, path);
  if (!found) throw new Error(`OpenAPI: no operation for ${method.toUpperCase()} ${path}`);
  const response = found.operation.responses?.[String(res.status)];
  if (!response)
    throw new Error(`OpenAPI: ${method.toUpperCase()} ${found.template} does not document status ${res.status}`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    if (res.status !== 204 && res.body && Object.keys(res.body as object).length) {
      throw new Error(
        `OpenAPI: ${method.toUpperCase()} ${found.template} ${res.status} has a body but no documented schema`,
      );
    }
    return;
  }
  const validate = ajv.compile({ allOf: [schema], components: (doc as Doc).components });
  if (!validate(res.body)) {
    throw new Error(
      `OpenAPI: ${method.toUpperCase()} ${found.template} ${res.status} body does not match: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
