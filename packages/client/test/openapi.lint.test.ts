/**
 * The six services' OpenAPI documents lint clean with Redocly's CLI (its recommended rules and
 * test/redocly.yaml): no error and no warning. The CLI runs in its own process, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_DOCUMENTS } from './service-documents';

const ROOT = path.resolve(__dirname, '../../..');
const REDOCLY = path.join(ROOT, 'node_modules/.bin/redocly');
const CONFIG = path.join(__dirname, 'redocly.yaml');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Lints each document in one run of the CLI; its JSON format prints one report per file, in order. */
function lint(documents: Record<string, object>): Promise<{ code: number; reports: Record<string, LintReport> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  const files = Object.entries(documents).map(([name, doc]) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  });
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolve, reject) => {
    execFile(
      REDOCLY,
      ['lint', '--config', CONFIG, '--format', 'json', ...files],
      { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        rmSync(dir, { recursive: true, force: true });
        const parts = stdout.split(/(?=\{\s*"totals")/).filter((part) => part.trim());
        if (parts.length !== files.length) return reject(error ?? new Error(`redocly printed ${parts.length} reports`));
        const names = Object.keys(documents);
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          reports: Object.fromEntries(parts.map((part, i) => [names[i], JSON.parse(part) as LintReport])),
        });
      },
    );
  });
}

const summary = (report: LintReport) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);

// A document with the defects the services had: a boolean `then`, no licence, an untagged operation.
const defective = {
  openapi: '3.1.0',
  info: { title: 'Defective', version: '1.0.0', description: 'A control for the linter' },
  servers: [{ url: '/v1' }],
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        summary: 'Create',
        requestBody: {
          content: {
            'application/json': { schema: { type: 'object', if: { required: ['a'] }, then: false } },
          },
        },
        responses: { '204': { description: 'Done' } },
      },
    },
  },
};

test('when Redocly lints the six documents, then there is no error and no warning; a defective document fails', async () => {
  const { code, reports } = await lint({ ...SERVICE_DOCUMENTS, defective });
  const { defective: control, ...services } = reports;
  expect(Object.keys(services).sort()).toEqual(['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications']);
  for (const [service, report] of Object.entries(services))
    expect({ service, problems: summary(report) }).toEqual({ service, problems: [] });
  expect(code).not.toBe(0);
  expect(control.problems.map((p) => p.ruleId)).toEqual(
    expect.arrayContaining(['struct', 'info-license', 'operation-4xx-response', 'rule/operation-has-tag']),
  );
}, 60_000);
