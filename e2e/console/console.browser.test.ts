/**
 * The web console in a real browser (Debian's Chromium) against `pnpm start` on embedded
 * defaults: a builder's journeys end to end, axe-core on every page, the keyboard alone on
 * sign-in, a 390px-wide phone. On failure the page is written to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createClient } from '@platform/client';
import { browserAvailable, waitFor } from '@platform/testkit';
import { ARTIFACTS, browserJourney, PASSWORD } from './browser-journey';
import type { StartedPlatform } from './platform-process';

const run = browserAvailable() ? describe : describe.skip;

run('the web console', () => {
  // A revoked key works until the services' key caches let it go (KEY_CACHE_TTL_MS): short here,
  // so the erasure journey sees its keys refused without waiting the default.
  const journey = browserJourney('console', { KEY_CACHE_TTL_MS: '2000' });
  const { step, expectAccessible, visit, followDevInboxLink, signIn, signOut } = journey;
  let platform: StartedPlatform;
  let page: Page;
  const owner = `owner-${Date.now()}@example.com`;
  const viewer = `viewer-${Date.now()}@example.com`;
  const state: { orgId?: string; projectId?: string; publicKey?: string; secretKey?: string } = {};

  beforeAll(() => {
    ({ platform, page } = journey);
  });

  it('signs up and verifies the address through the dev inbox', async () => {
    await step('sign-up', async () => {
      await visit('/sign-up');
      await expectAccessible();
      // A wrong address is refused next to its field, in words.
      await page.getByLabel('E-mail').fill('not-an-address');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.locator('.field .error').first().waitFor();
      await expectAccessible();

      await page.getByLabel('E-mail').fill(owner);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Your account is ready').waitFor();
    });
    await step('verify', async () => {
      await followDevInboxLink(owner, /verify/i, /open verify/i);
      await page.getByRole('heading', { name: 'Verify your e-mail' }).waitFor();
      await expectAccessible();
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Your address is verified').waitFor();
    });
  }, 120_000);

  it('signs in with the keyboard alone', async () => {
    await step('keyboard-sign-in', async () => {
      await signOut().catch(() => undefined);
      await visit('/sign-in');
      await expectAccessible();
      await page.getByLabel('E-mail').focus();
      await page.keyboard.type(owner);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Organisations' }).waitFor();
      await expectAccessible();
    });
  }, 60_000);

  it('creates an organisation and a project, and the keys shown once work through @platform/client', async () => {
    await step('organisation', async () => {
      await page.getByLabel('New organisation name').fill('Acme');
      await page.getByRole('button', { name: 'Create organisation' }).click();
      await page.getByRole('heading', { name: /Acme/ }).waitFor();
      state.orgId = page.url().split('/orgs/')[1];
      await expectAccessible();
    });
    await step('project', async () => {
      await page.getByLabel('New project name').fill('shop');
      await page.getByRole('button', { name: 'Create project' }).click();
      const dialog = page.getByRole('dialog', { name: 'Project created' });
      await dialog.waitFor();
      await expectAccessible();
      state.secretKey = (await dialog.getByTestId('secret-key').textContent()) ?? undefined;
      await dialog.getByRole('link', { name: /Open shop/ }).click();
      await page.getByRole('heading', { name: 'Keys' }).waitFor();
      state.projectId = page.url().split('/projects/')[1];
      state.publicKey = (await page.getByTestId('public-key').first().textContent()) ?? undefined;
      await expectAccessible();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-project.png') });
      // The secret is not on the project page: it was shown once.
      expect(await page.content()).not.toContain(state.secretKey);
    });
    await step('keys-through-client', async () => {
      const client = createClient({
        urls: { notifications: platform.serviceUrl('notifications') },
        keys: {
          apiKey: state.publicKey!,
          secretKey: state.secretKey!,
          tenantId: state.orgId!,
          projectId: state.projectId!,
        },
      });
      const sent = await client.notifications.postNotifications({ body: { title: 'Hello', message: 'From a script' } });
      expect(sent.response.status).toBe(201);
      const listed = await client.notifications.getNotifications();
      expect(listed.data?.notifications.map((notification) => notification.title)).toContain('Hello');
    });
    await step('phone-width', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await page.getByRole('heading', { name: 'Keys' }).waitFor();
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }, 120_000);

  it('sends a notification and watches it arrive in the live inbox', async () => {
    await step('notifications', async () => {
      await visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await page.getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      await expectAccessible();
      await page.getByLabel('User id to watch').fill('user-1');
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByText(/Stream open/).waitFor();
      await page.getByLabel('To user (id; empty: everyone)').fill('user-1');
      await page.getByLabel('Title').fill('Your order shipped');
      await page.getByLabel('Message').fill('It is on its way');
      await page.getByRole('button', { name: 'Send notification' }).click();
      await page.getByTestId('live-inbox').getByText('Your order shipped').waitFor();
      await page.getByRole('cell', { name: 'Your order shipped' }).waitFor();
      await expectAccessible();
    });
    await step('users', async () => {
      // An end user of the project, registered by the builder's app with the project's keys.
      const client = createClient({
        urls: { auth: platform.serviceUrl('auth') },
        keys: {
          apiKey: state.publicKey!,
          secretKey: state.secretKey!,
          tenantId: state.orgId!,
          projectId: state.projectId!,
        },
      });
      const registered = await client.auth.postRegister({ body: { email: 'grace@example.com', password: PASSWORD } });
      expect(registered.response.status).toBe(201);
      await visit(`/orgs/${state.orgId}/projects/${state.projectId}/users`);
      await page.getByLabel('Search by e-mail (starts with)').fill('grace');
      await page.getByLabel('Search by e-mail (starts with)').press('Enter');
      await page.getByRole('button', { name: 'grace@example.com' }).click();
      await page.getByRole('article', { name: 'User grace@example.com' }).waitFor();
      await expectAccessible();
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).waitFor();
      await page.getByRole('cell', { name: 'disabled' }).waitFor();
    });
  }, 90_000);

  it('invites a viewer who accepts and sees no button that would write', async () => {
    await step('invite', async () => {
      await visit(`/orgs/${state.orgId}`);
      await page.getByLabel('Invite by e-mail').fill(viewer);
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText('Invitation sent.').waitFor();
      await page.getByRole('cell', { name: viewer }).waitFor();
      await expectAccessible();
      await signOut();
    });
    await step('accept', async () => {
      await journey.acceptInvitationAs(viewer);
      await page.getByRole('heading', { name: /Acme/ }).waitFor();
    });
    await step('viewer-sees-no-writes', async () => {
      await page.getByRole('link', { name: 'shop' }).waitFor();
      expect(await page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Invitations' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Audit log' }).count()).toBe(0);
      await page.getByRole('link', { name: 'shop' }).click();
      await page.getByRole('heading', { name: 'Project settings' }).waitFor();
      await expectAccessible();
      expect(await page.getByRole('heading', { name: 'Keys' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Save setting|Delete project|Rename project/ }).count()).toBe(0);
      await signOut();
    });
  }, 150_000);

  it('deletes the project: its keys stop working and every service confirms the erasure', async () => {
    await step('delete', async () => {
      await signIn(owner);
      await visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await page.getByRole('button', { name: 'Delete project…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this project?' });
      await dialog.waitFor();
      await expect(dialog.getByRole('button', { name: 'Delete project' }).isDisabled()).resolves.toBe(true);
      await dialog.getByLabel('Type shop to confirm').fill('shop');
      await dialog.getByRole('button', { name: 'Delete project' }).click();
      await page.getByRole('heading', { name: 'Project erased' }).waitFor({ timeout: 60_000 });
      await expectAccessible();
    });
    await step('data-gone', async () => {
      const client = createClient({
        urls: { notifications: platform.serviceUrl('notifications') },
        keys: {
          apiKey: state.publicKey!,
          secretKey: state.secretKey!,
          tenantId: state.orgId!,
          projectId: state.projectId!,
        },
      });
      const status = await waitFor(
        async () => {
          const listed = await client.notifications.getNotifications();
          return listed.response.status === 401 ? listed.response.status : 0;
        },
        { timeoutMs: 15_000, intervalMs: 250 },
      );
      expect(status).toBe(401);
    });
  }, 120_000);
});
