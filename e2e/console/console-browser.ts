/**
 * What the web console's browser tests share: the platform and Chromium for one test file, steps
 * that keep a screenshot when they fail, axe-core, and the account journeys through the dev inbox.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { createClient, type PlatformClient } from '@platform/client';
import { launchBrowser } from '@platform/testkit';
import { startPlatform, type StartedPlatform } from './platform-process';

export const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
export const PASSWORD = 'correct horse battery staple';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A project as its creator saw it: ids and the key pair shown once. */
export interface CreatedProject {
  orgId: string;
  projectId: string;
  publicKey: string;
  secretKey: string;
}

export interface ConsoleBrowser {
  platform: StartedPlatform;
  browser: { context: BrowserContext; close(): Promise<void> };
  page: Page;
  /** One step of a journey: on failure the page as it was is kept as a screenshot. */
  step(name: string, body: () => Promise<void>): Promise<void>;
  /** axe-core on the page as it is: no serious or critical violation. */
  expectAccessible(): Promise<void>;
  visit(address: string): Promise<void>;
  /** The newest dev-inbox e-mail to `to` whose subject matches, opened, and its console link followed. */
  followDevInboxLink(to: string, subject: RegExp, linkName: RegExp): Promise<void>;
  signIn(email: string): Promise<void>;
  signOut(): Promise<void>;
  /** A new member who signed up and verified the address through the dev inbox (left signed in). */
  signUpAndVerify(email: string): Promise<void>;
  /** An organisation and a project made in the pages by the signed-in member, left on the project home. */
  createProject(organisation: string, project: string): Promise<CreatedProject>;
  /** Invites `email` with `role` from the organisation page; the inviter stays signed in. */
  invite(orgId: string, email: string, role: 'admin' | 'developer' | 'viewer'): Promise<void>;
  /** Signs up as `email` (signing the current member out) and accepts the invitation from the dev inbox. */
  acceptInvitation(email: string): Promise<void>;
  /** The six services with a project's own keys, as a builder's script holds them. */
  clientOf(project: CreatedProject): PlatformClient;
}

/**
 * For one test file: `pnpm start` on embedded defaults with any extra `env` and a fresh Chromium
 * (beforeAll), both stopped afterAll. The fields are set once beforeAll has run.
 */
export function useConsoleBrowser(prefix: string, env: () => Record<string, string> = () => ({})): ConsoleBrowser {
  const ctx = {} as ConsoleBrowser;

  beforeAll(async () => {
    ctx.platform = await startPlatform(env());
    ctx.browser = await launchBrowser();
    ctx.page = ctx.browser.context.pages()[0] ?? (await ctx.browser.context.newPage());
    ctx.page.setDefaultTimeout(20_000);
    await ctx.page.setViewportSize({ width: 1280, height: 800 });
  }, 240_000);

  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.platform?.stop();
  }, 60_000);

  ctx.step = async (name, body) => {
    try {
      await body();
    } catch (error) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await ctx.page
        .screenshot({ path: path.join(ARTIFACTS, `${prefix}-${name.replace(/\W+/g, '-')}.png`), fullPage: true })
        .catch(() => undefined);
      throw error;
    }
  };

  ctx.expectAccessible = async () => {
    await ctx.page.evaluate(AXE_SOURCE);
    const violations = await ctx.page.evaluate(async () => {
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
  };

  ctx.visit = async (address) => {
    await ctx.page.goto(`${ctx.platform.consoleUrl}${address}`);
  };

  ctx.followDevInboxLink = async (to, subject, linkName) => {
    const { page } = ctx;
    await ctx.visit('/dev-inbox');
    await expect(page.getByRole('heading', { name: 'Dev inbox' }).isVisible()).resolves.toBe(true);
    const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
    await row.waitFor({ timeout: 30_000 });
    await ctx.expectAccessible();
    await row.getByRole('button').click();
    await page.getByRole('link', { name: linkName }).click();
  };

  ctx.signIn = async (email) => {
    const { page } = ctx;
    await ctx.visit('/sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  };

  ctx.signOut = async () => {
    await ctx.page.getByRole('button', { name: 'Sign out' }).click();
    await ctx.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  };

  async function signUp(email: string): Promise<void> {
    const { page } = ctx;
    if ((await page.getByRole('button', { name: 'Sign out' }).count()) > 0) await ctx.signOut();
    await ctx.visit('/sign-up');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Your account is ready').waitFor();
  }

  ctx.signUpAndVerify = async (email) => {
    await signUp(email);
    await ctx.followDevInboxLink(email, /verify/i, /open verify/i);
    await ctx.page.getByRole('heading', { name: 'Verify your e-mail' }).waitFor();
    await ctx.page.getByRole('button', { name: 'Verify' }).click();
    await ctx.page.getByText('Your address is verified').waitFor();
  };

  ctx.createProject = async (organisation, project) => {
    const { page } = ctx;
    await ctx.visit('/');
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
  };

  ctx.invite = async (orgId, email, role) => {
    const { page } = ctx;
    await ctx.visit(`/orgs/${orgId}`);
    await page.getByLabel('Invite by e-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent.').waitFor();
  };

  ctx.acceptInvitation = async (email) => {
    await signUp(email);
    await ctx.followDevInboxLink(email, /invit/i, /open accept/i);
    await ctx.page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
    await ctx.page.getByRole('button', { name: 'Accept invitation' }).click();
  };

  ctx.clientOf = (project) =>
    createClient({
      urls: {
        auth: ctx.platform.serviceUrl('auth'),
        billing: ctx.platform.serviceUrl('billing'),
        mailer: ctx.platform.serviceUrl('mailer'),
        notifications: ctx.platform.serviceUrl('notifications'),
      },
      keys: {
        apiKey: project.publicKey,
        secretKey: project.secretKey,
        tenantId: project.orgId,
        projectId: project.projectId,
      },
    });

  return ctx;
}
