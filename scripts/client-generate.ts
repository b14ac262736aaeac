/**
 * `pnpm client:generate`: rewrites packages/client/src/generated/ from the services' OpenAPI
 * documents. `--check` writes nothing and exits 1 naming the services whose committed types
 * differ; `--documents <file.json>` reads `{service: document}` from a file instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { committedModules, driftedServices, generateAll, GENERATED_DIR, SERVICE_DOCUMENTS } from './client-codegen';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, documents: { type: 'string' } } });
  const documents = values.documents
    ? (JSON.parse(readFileSync(values.documents, 'utf8')) as Record<string, object>)
    : SERVICE_DOCUMENTS;
  const generated = await generateAll(documents);
  if (values.check) {
    const drifted = driftedServices(generated, committedModules(Object.keys(generated)));
    if (drifted.length === 0) return 0;
    console.error(`client types out of date for: ${drifted.join(', ')} (run pnpm client:generate)`);
    return 1;
  }
  for (const [service, source] of Object.entries(generated)) {
    writeFileSync(path.join(GENERATED_DIR, `${service}.ts`), source);
    console.log(path.relative(process.cwd(), path.join(GENERATED_DIR, `${service}.ts`)));
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
