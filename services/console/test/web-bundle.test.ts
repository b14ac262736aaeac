import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb } from '../src/site/web-build';

const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

describe('the web console bundle', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'console-web-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('loads under 250 KB of gzipped JavaScript first and each page on demand', async () => {
    const built = await buildWeb(outDir);
    const gzipped = (file: string) => gzipSync(readFileSync(path.join(outDir, file))).length;
    const initialJs = built.initial.filter((file) => file.endsWith('.js'));
    const initialBytes = initialJs.reduce((sum, file) => sum + gzipped(file), 0);
    expect(initialBytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);

    // The pages are separate chunks that the first load does not fetch.
    const lazy = built.files.filter((file) => file.endsWith('.js') && !built.initial.includes(file));
    expect(lazy.length).toBeGreaterThanOrEqual(5);
    const initialText = initialJs.map((file) => readFileSync(path.join(outDir, file), 'utf8')).join('');
    expect(initialText).not.toContain('Suppression list');
    expect(lazy.some((file) => readFileSync(path.join(outDir, file), 'utf8').includes('Suppression list'))).toBe(true);
    // The chart library (uPlot, known by its class names) comes with the pages that draw charts only.
    const drawsCharts = (file: string) => readFileSync(path.join(outDir, file), 'utf8').includes('u-cursor-pt');
    expect(initialJs.filter(drawsCharts)).toEqual([]);
    expect(lazy.filter(drawsCharts)).toHaveLength(1);
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).toContain(`src="/${built.entry}"`);
    expect(built.entry).toMatch(/^assets\/main-/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/main-[^"]+\.css"/);
    // No inline script: the page's Content-Security-Policy allows only the console's own files.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  }, 120_000);
});
