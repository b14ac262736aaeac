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
