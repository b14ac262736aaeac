import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertOperationCoverage, coverageReports, documentedEntries } from './operation-coverage';

const doc = {
  paths: {
    '/things': { get: { responses: { 200: {}, 401: {}, 503: {} } }, parameters: [] },
    '/things/{id}': { delete: { responses: { 204: {}, 404: {} } } },
  },
};

let root: string;
let testDir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'coverage-test-'));
  testDir = path.join(root, 'suite');
  mkdirSync(testDir);
  for (const name of ['a.test.ts', 'b.test.ts']) writeFileSync(path.join(testDir, name), '');
  mkdirSync(path.join(root, 'records', 'things'), { recursive: true });
  writeFileSync(
    path.join(root, 'records', 'things', 'manifest.json'),
    JSON.stringify({
      testDir,
      documented: documentedEntries(doc),
      exempt: [{ pattern: ' 503$', reason: 'elsewhere' }],
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What one jest worker would have appended. */
const worker = (id: string, records: [string, string][]) =>
  writeFileSync(
    path.join(root, 'records', 'things', `${id}.jsonl`),
    records.map(([entry, file]) => JSON.stringify({ entry, testFile: path.join(testDir, file) })).join('\n') + '\n',
  );

describe('the run-wide operation coverage check', () => {
  it('when the document is read, then every operation and status is one entry (path-level fields are not operations)', () => {
    expect(documentedEntries(doc)).toEqual([
      'GET /things 200',
      'GET /things 401',
      'GET /things 503',
      'DELETE /things/{id} 204',
      'DELETE /things/{id} 404',
    ]);
  });

  it('when the files between them exercised everything not exempt, then it passes whichever worker ran which', () => {
    worker('1-10', [
      ['DELETE /things/{id} 404', 'b.test.ts'],
      ['GET /things 200', 'b.test.ts'],
    ]);
    worker('2-11', [
      ['GET /things 401', 'a.test.ts'],
      ['DELETE /things/{id} 204', 'a.test.ts'],
    ]);
    expect(() => assertOperationCoverage(path.join(root, 'records'))).not.toThrow();
  });

  it('when a status was never exercised in a full run, then the check fails naming it', () => {
    worker('1-10', [['GET /things 200', 'a.test.ts']]);
    worker('2-11', [['GET /things 401', 'b.test.ts']]);
    expect(() => assertOperationCoverage(path.join(root, 'records'))).toThrow(
      /things: documented but never exercised:\n {2}DELETE \/things\/\{id\} 204\n {2}DELETE \/things\/\{id\} 404/,
    );
  });

  it('when only some of the test files ran, then nothing is checked', () => {
    worker('1-10', [['GET /things 200', 'a.test.ts']]);
    const [report] = coverageReports(path.join(root, 'records'));
    expect(report).toMatchObject({ service: 'things', checked: false, notRun: [path.join(testDir, 'b.test.ts')] });
    expect(() => assertOperationCoverage(path.join(root, 'records'))).not.toThrow();
  });
});
