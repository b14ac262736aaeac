export {
  buildOpenApiDocument,
  errorResponses,
  jsonBody,
  jsonResponse,
  KEYS,
  BEARER,
  KEYS_AND_BEARER,
  type JsonSchema,
  type OpenApiInput,
} from './openapi';
export { type OpenApiTag } from './openapi-tags';
export { buildContractDocument, type ContractInput } from './document';
export {
  defineOperation,
  json,
  succeeded,
  type HttpMethod,
  type OperationDefinition,
  type ResponseDefinition,
} from './operation';
export { toJsonSchema, type Components } from './convert';
