/**
 * What the web console's browser tests share: a step that keeps a screenshot when it fails, the
 * axe-core check, signing in and out, the dev inbox, and a new owner with a project and its keys.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
export const PASSWORD = 'correct horse battery staple';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A project made through the console, with the key pair shown once at its creation. */
export interface ConsoleProject {
  orgId: string;
  projectId: string;
  publicKey: string;
  secretKey: string;
}

/**
 * The helpers, bound to the page and console address of a test file (read when called, since
 * both are made in `beforeAll`); `prefix` names the screenshots of failed steps.
 */
export function consoleDriver(pageOf: () => Page, consoleUrlOf: () => string, prefix = 'console') {
  /** One step of a journey: on failure the page as it was is kept as a screenshot. */
  async function step(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await pageOf()
        .screenshot({ path: path.join(ARTIFACTS, `${prefix}-${name.replace(/\W+/g, '-')}.png`), fullPage: true })
        .catch(() => undefined);
      throw error;
    }
  }

  /** axe-core on the page as it is: no serious or critical violation. */
  async function expectAccessible(): Promise<void> {
    const page = pageOf();
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
        }
      ).axe;
      const result = await axe.run();
      return result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);
  }

  const visit = async (address: string) => {
    await pageOf().goto(`${consoleUrlOf()}${address}`);
  };

  /** The newest dev-inbox e-mail to `to` whose subject matches, opened, and its console link followed. */
  async function followDevInboxLink(to: string, subject: RegExp, linkName: RegExp): Promise<void> {
    const page = pageOf();
    await visit('/dev-inbox');
    await expect(page.getByRole('heading', { name: 'Dev inbox' }).isVisible()).resolves.toBe(true);
    const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
    await row.waitFor({ timeout: 30_000 });
    await expectAccessible();
    await row.getByRole('button').click();
    await page.getByRole('link', { name: linkName }).click();
  }

  async function signIn(email: string): Promise<void> {
    const page = pageOf();
    await visit('/sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  }

  async function signOut(): Promise<void> {
    const page = pageOf();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  }

  async function signUp(email: string): Promise<void> {
    const page = pageOf();
    await visit('/sign-up');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Your account is ready').waitFor();
  }

  /** A new member who signs up and makes an organisation and a project: the project's ids and its first key pair. */
  async function ownerWithProject(email: string, organisation: string, project: string): Promise<ConsoleProject> {
    const page = pageOf();
    await signUp(email);
    await visit('/');
    await page.getByLabel('New organisation name').fill(organisation);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { name: new RegExp(organisation) }).waitFor();
    const orgId = page.url().split('/orgs/')[1];
    await page.getByLabel('New project name').fill(project);
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Project created' });
    await dialog.waitFor();
    const secretKey = (await dialog.getByTestId('secret-key').textContent()) ?? '';
    await dialog.getByRole('link', { name: new RegExp(`Open ${project}`) }).click();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    const projectId = page.url().split('/projects/')[1];
    const publicKey = (await page.getByTestId('public-key').first().textContent()) ?? '';
    return { orgId, projectId, publicKey, secretKey };
  }

  return { step, expectAccessible, visit, followDevInboxLink, signIn, signOut, signUp, ownerWithProject };
}
