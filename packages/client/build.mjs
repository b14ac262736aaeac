#!/usr/bin/env node
/**
 * Builds the publishable client into dist/: ESM (index.mjs) and CommonJS (index.cjs) for Node
 * and bundlers, browser.mjs (one file, openapi-fetch included, built for browsers: a Node-only
 * import fails the build), and the type declarations (types/).
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(dir, 'dist');
const entry = path.join(dir, 'src/index.ts');
const common = { entryPoints: [entry], bundle: true, target: 'es2022', sourcemap: true, logLevel: 'warning' };

rmSync(dist, { recursive: true, force: true });
await build({
  ...common,
  platform: 'neutral',
  format: 'esm',
  outfile: path.join(dist, 'index.mjs'),
  external: ['openapi-fetch'],
});
await build({
  ...common,
  platform: 'node',
  format: 'cjs',
  outfile: path.join(dist, 'index.cjs'),
  external: ['openapi-fetch'],
});
await build({ ...common, platform: 'browser', format: 'esm', outfile: path.join(dist, 'browser.mjs'), minify: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.build.json')], { stdio: 'inherit' });
