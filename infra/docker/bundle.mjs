#!/usr/bin/env node
/**
 * Production bundle of one workspace package (a service, or the admin CLI):
 *
 *   node infra/docker/bundle.mjs <package dir> [entry ...] [--outdir <dir>]
 *   (default entries: src/main.ts src/migrate.ts; default outdir: <package dir>/dist)
 *
 * Our own workspace packages (`@platform/*`, whose `main` is TypeScript source) are bundled
 * into dist/; every npm package stays external and is loaded from the production
 * node_modules that `pnpm deploy --prod` builds for the image. Writes dist/externals.json,
 * the npm packages the bundle loads, which check-externals.mjs verifies inside the image.
 */
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const outFlag = argv.indexOf('--outdir');
const outArg = outFlag >= 0 ? argv.splice(outFlag, 2)[1] : undefined;
const [dirArg, ...entryArgs] = argv;
if (!dirArg) {
  process.stderr.write('usage: node infra/docker/bundle.mjs <package dir> [entry ...]\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);
const entries = entryArgs.length ? entryArgs : ['src/main.ts', 'src/migrate.ts'];
const outdir = outArg ? path.resolve(outArg) : path.join(dir, 'dist');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** `lodash/get` -> `lodash`, `@scope/pkg/sub` -> `@scope/pkg`. */
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const externals = new Set();
const npmExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (builtins.has(args.path) || path.isAbsolute(args.path)) return undefined;
      if (args.path.startsWith('@platform/')) return undefined; // bundle our own packages
      externals.add(packageName(args.path));
      return { path: args.path, external: true };
    });
  },
};

await build({
  absWorkingDir: dir,
  entryPoints: entries,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [npmExternal],
});
mkdirSync(outdir, { recursive: true });
writeFileSync(path.join(outdir, 'externals.json'), `${JSON.stringify([...externals].sort(), null, 2)}\n`);
process.stdout.write(
  `bundled ${entries.join(', ')} of ${path.relative(process.cwd(), dir) || '.'} (externals: ${[...externals].sort().join(', ')})\n`,
);
