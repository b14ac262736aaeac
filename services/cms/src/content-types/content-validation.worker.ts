import { serveBudgetRequests } from '@platform/runtime/src/budget-thread';
import { validationHandler, type ValidationReply, type ValidationRequest } from './content-validation.thread';
import { ValidatorCache } from './schema-compiler';

/** A content validation thread (content-validation.ts): compiles tenants' schemas and validates content off the main thread. */
const handle = validationHandler(new ValidatorCache());
// ajv (each dialect's meta-schema) and the RE2 engine load before the first timed request:
// loading is not part of any budget.
const sample = { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z]+$', format: 'email' } } };
handle({ kind: 'validate', typeId: 'warm-up', schema: sample, content: '{"a":"b"}', maxErrors: 1 });
for (const $schema of [
  'https://json-schema.org/draft/2019-09/schema',
  'https://json-schema.org/draft/2020-12/schema',
]) {
  handle({ kind: 'compile', schema: { ...sample, $schema } });
}
serveBudgetRequests<ValidationRequest, ValidationReply>(handle);
