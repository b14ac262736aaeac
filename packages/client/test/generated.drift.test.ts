/**
 * The committed client types must be what the services' documents generate now. The generator
 * runs as `pnpm client:generate` does, in its own process (openapi-typescript loads ESM-only
 * modules that jest cannot).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openapi as auth } from '../../../services/auth/src/openapi';
import { openapi as billing } from '../../../services/billing/src/openapi';
import { openapi as cms } from '../../../services/cms/src/openapi';
import { openapi as llm } from '../../../services/llm/src/openapi';
import { openapi as mailer } from '../../../services/mailer/src/openapi';
import { openapi as notifications } from '../../../services/notifications/src/openapi';

const ROOT = path.resolve(__dirname, '../../..');
const documents = { auth, billing, cms, llm, mailer, notifications };

async function generate(args: string[], docs?: object): Promise<{ code: number; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-docs-'));
  const file = path.join(dir, 'documents.json');
  if (docs) writeFileSync(file, JSON.stringify(docs));
  try {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/client-generate.ts', ...args, ...(docs ? ['--documents', file] : [])],
      { cwd: ROOT },
    );
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('when a service document and the committed client types differ, then this fails: run pnpm client:generate', async () => {
  expect(await generate(['--check'])).toEqual({ code: 0, stderr: '' });
});

test('when a document gains an operation, then the drift check fails naming that service', async () => {
  const changed = structuredClone(cms) as { paths: Record<string, unknown> };
  changed.paths['/content/{content_id}/archive'] = {
    post: { summary: 'Archive', security: [], responses: { 200: { description: 'Archived' } } },
  };
  const result = await generate(['--check'], { ...documents, cms: changed });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('client types out of date for: cms (run pnpm client:generate)');
});

test('when two operations would get the same method name, then generation refuses', async () => {
  const twins = { paths: { '/a-b': { get: { responses: {} } }, '/a/b': { get: { responses: {} } } } };
  const result = await generate(['--check'], { twins });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('two operations would be called getAB');
});
