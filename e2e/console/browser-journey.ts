/**
 * What every browser test of the web console shares: `pnpm start` and Chromium for the file, a
 * step that keeps a screenshot of the page when it fails, axe-core on the page as it is, and the
 * account moves (sign up through the dev inbox, sign in, sign out, accept an invitation).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '@platform/testkit';
import { startPlatform, type StartedPlatform } from './platform-process';

export const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
export const PASSWORD = 'correct horse battery staple';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface BrowserJourney {
  readonly platform: StartedPlatform;
  readonly page: Page;
  /** One step of a journey: on failure the page as it was is kept as `<prefix>-<name>.png`. */
  step(name: string, body: () => Promise<void>): Promise<void>;
  /** axe-core on the page as it is: no serious or critical violation. */
  expectAccessible(): Promise<void>;
  visit(address: string): Promise<void>;
  /** The newest dev-inbox e-mail to `to` whose subject matches, opened, and its console link followed. */
  followDevInboxLink(to: string, subject: RegExp, linkName: RegExp): Promise<void>;
  /** A new account, its address verified through the dev inbox; signed in afterwards. */
  signUpVerified(email: string): Promise<void>;
  signIn(email: string): Promise<void>;
  signOut(): Promise<void>;
  /** Signed out: `email` signs up and accepts the invitation waiting in the dev inbox. */
  acceptInvitationAs(email: string): Promise<void>;
}

/**
 * Registers the file's beforeAll/afterAll: the platform (with `env`) and one Chromium page. `env`
 * may be a function, read when the platform starts: after the file's earlier beforeAll (a vendor stand-in's address).
 */
export function browserJourney(
  prefix: string,
  env: Record<string, string> | (() => Record<string, string>) = {},
): BrowserJourney {
  let platform: StartedPlatform | undefined;
  let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    platform = await startPlatform(typeof env === 'function' ? env() : env);
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(20_000);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  const started = () => {
    if (!platform || !page) throw new Error('the platform and the browser start in beforeAll');
    return { platform, page };
  };

  const journey: BrowserJourney = {
    get platform() {
      return started().platform;
    },
    get page() {
      return started().page;
    },
    async step(name, body) {
      try {
        await body();
      } catch (error) {
        mkdirSync(ARTIFACTS, { recursive: true });
        await page
          ?.screenshot({ path: path.join(ARTIFACTS, `${prefix}-${name.replace(/\W+/g, '-')}.png`), fullPage: true })
          .catch(() => undefined);
        throw error;
      }
    },
    async expectAccessible() {
      const { page } = started();
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
    },
    async visit(address) {
      const { platform, page } = started();
      await page.goto(`${platform.consoleUrl}${address}`);
    },
    async followDevInboxLink(to, subject, linkName) {
      const { page } = started();
      await journey.visit('/dev-inbox');
      await page.getByRole('heading', { name: 'Dev inbox' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
      await row.waitFor({ timeout: 30_000 });
      await journey.expectAccessible();
      await row.getByRole('button').click();
      await page.getByRole('link', { name: linkName }).click();
    },
    async signUpVerified(email) {
      const { page } = started();
      await journey.visit('/sign-up');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Your account is ready').waitFor();
      await journey.followDevInboxLink(email, /verify/i, /open verify/i);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Your address is verified').waitFor();
    },
    async signIn(email) {
      const { page } = started();
      await journey.visit('/sign-in');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Organisations' }).waitFor();
    },
    async signOut() {
      const { page } = started();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
    async acceptInvitationAs(email) {
      const { page } = started();
      await journey.visit('/sign-up');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Your account is ready').waitFor();
      await journey.followDevInboxLink(email, /invit/i, /open accept/i);
      await page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
      await journey.expectAccessible();
      await page.getByRole('button', { name: 'Accept invitation' }).click();
    },
  };
  return journey;
}
