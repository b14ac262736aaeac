import { serveBudgetRequests } from '@platform/runtime/src/budget-thread';
import { validationHandler, type ValidationReply, type ValidationRequest } from './content-validation.thread';
import { re2Engine } from './re2-engine';
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
// Stopped at its budget, the thread is kept (no ajv and RE2 to load again); RE2's instance is
// retired then, since the stop may have come inside its WebAssembly.
serveBudgetRequests<ValidationRequest, ValidationReply>(handle, {
  interruptible: true,
  onInterrupted: () => re2Engine.retire(),
});
