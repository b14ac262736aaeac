/**
 * "Every documented operation and status is exercised", checked once per run and independent of
 * test file order: each test client records what it saw into a file per worker under
 * CONTRACT_COVERAGE_DIR (made by jest's global setup); jest's global teardown reads them all.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CoverageExemption {
  /** Regular expression over `METHOD /template STATUS`, e.g. ` (429|503)$`. */
  pattern: string;
  /** Where else it is tested, or why it cannot be. */
  reason: string;
}

export interface CoverageOptions {
  /** Names the service's records; one name per service. */
  service: string;
  /** The service's test folder: the check runs only when every test file in it ran. */
  testDir: string;
  exempt?: CoverageExemption[];
}

interface Manifest {
  testDir: string;
  documented: string[];
  exempt: CoverageExemption[];
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** `METHOD /template STATUS` for every documented status of every operation. */
export function documentedEntries(doc: object): string[] {
  const paths = (doc as { paths: Record<string, Record<string, { responses?: object }>> }).paths;
  return Object.entries(paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .flatMap(([method, op]) =>
        Object.keys(op.responses ?? {}).map((status) => `${method.toUpperCase()} ${template} ${status}`),
      ),
  );
}

function serviceDir(service: string): string | undefined {
  const root = process.env.CONTRACT_COVERAGE_DIR;
  if (!root) return undefined;
  const dir = path.join(root, service);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes what the service documents and exempts (the same from every worker). */
export function registerCoverage(doc: object, options: CoverageOptions): void {
  const dir = serviceDir(options.service);
  if (!dir) return;
  const manifest: Manifest = {
    testDir: options.testDir,
    documented: documentedEntries(doc),
    exempt: options.exempt ?? [],
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** Records one exercised `METHOD /template STATUS` for the running test file. */
export function recordExercised(service: string, entry: string, testFile: string): void {
  const dir = serviceDir(service);
  if (!dir) return;
  const worker = `${process.env.JEST_WORKER_ID ?? '0'}-${process.pid}`;
  appendFileSync(path.join(dir, `${worker}.jsonl`), `${JSON.stringify({ entry, testFile })}\n`);
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return testFilesUnder(full);
    return d.name.endsWith('.test.ts') ? [full] : [];
  });
}

export interface CoverageReport {
  service: string;
  /** False when some of the service's test files did not run (a partial run checks nothing). */
  checked: boolean;
  missing: string[];
  notRun: string[];
}

/** Reads every service's records under `root` and lists documented entries no test exercised. */
export function coverageReports(root: string): CoverageReport[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((service) => {
    const dir = path.join(root, service);
    const manifestFile = path.join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) return [];
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    const exercised = new Set<string>();
    const ran = new Set<string>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        if (!line) continue;
        const record = JSON.parse(line) as { entry: string; testFile: string };
        exercised.add(record.entry);
        ran.add(path.resolve(record.testFile));
      }
    }
    const notRun = testFilesUnder(manifest.testDir).filter((file) => !ran.has(path.resolve(file)));
    const exempt = manifest.exempt.map((e) => new RegExp(e.pattern));
    const missing = manifest.documented.filter(
      (entry) => !exercised.has(entry) && !exempt.some((pattern) => pattern.test(entry)),
    );
    return [{ service, checked: notRun.length === 0, missing, notRun }];
  });
}

/** For jest's global teardown: throws naming each service whose full run left documented entries unexercised. */
export function assertOperationCoverage(root: string | undefined): void {
  if (!root) return;
  const failures = coverageReports(root)
    .filter((report) => report.checked && report.missing.length > 0)
    .map((report) => `${report.service}: documented but never exercised:\n  ${report.missing.join('\n  ')}`);
  if (failures.length) throw new Error(`OpenAPI coverage\n${failures.join('\n')}`);
}
