import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where the web console's source is, and where `pnpm start` builds it. */
export const WEB_SOURCE = path.resolve(__dirname, '../../web');
export const WEB_BUILT = path.join(WEB_SOURCE, 'dist');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether the built pages are missing or older than any source file or this builder. */
export function webBuildIsStale(outDir = WEB_BUILT): boolean {
  const index = path.join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const newest = Math.max(newestChange(path.join(WEB_SOURCE, 'src')), statSync(__filename).mtimeMs);
  return newest > statSync(index).mtimeMs;
}

const page = (script: string, styles: string[]) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Console</title>
    ${styles.map((href) => `<link rel="stylesheet" href="/${href}" />`).join('\n    ')}
    <script type="module" src="/${script}"></script>
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>
`;

/**
 * Builds the web console with esbuild (ES modules, one chunk per page, loaded on demand) into
 * `outDir`: assets/ with hashed names, and index.html naming the entry and its styles.
 */
export async function buildWeb(outDir = WEB_BUILT): Promise<{ entry: string; files: string[]; initial: string[] }> {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [path.join(WEB_SOURCE, 'src/main.tsx')],
    absWorkingDir: WEB_SOURCE,
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.entries(result.metafile.outputs);
  const relative = (file: string) => path.relative(outDir, path.resolve(WEB_SOURCE, file)).split(path.sep).join('/');
  // Pages loaded on demand are entry points of their own in the metafile: the page's is main.tsx.
  const entry = outputs.find(([, meta]) => meta.entryPoint?.endsWith('src/main.tsx'))?.[0];
  if (!entry) throw new Error('web build made no entry');
  const entryCss = result.metafile.outputs[entry]?.cssBundle;
  const styles = entryCss ? [relative(entryCss)] : [];
  writeFileSync(path.join(outDir, 'index.html'), page(relative(entry), styles));
  // What the first page load fetches: the entry and what it imports statically, not the pages loaded on demand.
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imported of result.metafile.outputs[file]?.imports ?? [])
      if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entry);
  return {
    entry: relative(entry),
    files: outputs.map(([file]) => relative(file)),
    initial: [...initial].map(relative),
  };
}
