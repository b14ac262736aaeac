/**
 * The web console in a real browser (Debian's Chromium) against `pnpm start` on embedded
 * defaults: a builder's journeys end to end, axe-core on every page, the keyboard alone on
 * sign-in, a 390px-wide phone. On failure the page is written to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@platform/client';
import { browserAvailable, waitFor } from '@platform/testkit';
import { ARTIFACTS, PASSWORD, useConsoleBrowser } from './console-browser';

const run = browserAvailable() ? describe : describe.skip;

run('the web console', () => {
  const ui = useConsoleBrowser('console', () => ({
    // A revoked key works until the services' key caches let it go (KEY_CACHE_TTL_MS): short here,
    // so the erasure journey sees its keys refused without waiting the default.
    KEY_CACHE_TTL_MS: '2000',
  }));
  const owner = `owner-${Date.now()}@example.com`;
  const viewer = `viewer-${Date.now()}@example.com`;
  const state: { orgId?: string; projectId?: string; publicKey?: string; secretKey?: string } = {};

  it('signs up and verifies the address through the dev inbox', async () => {
    await ui.step('sign-up', async () => {
      await ui.visit('/sign-up');
      await ui.expectAccessible();
      // A wrong address is refused next to its field, in words.
      await ui.page.getByLabel('E-mail').fill('not-an-address');
      await ui.page.getByLabel('Password').fill(PASSWORD);
      await ui.page.getByRole('button', { name: 'Sign up' }).click();
      await ui.page.locator('.field .error').first().waitFor();
      await ui.expectAccessible();

      await ui.page.getByLabel('E-mail').fill(owner);
      await ui.page.getByRole('button', { name: 'Sign up' }).click();
      await ui.page.getByText('Your account is ready').waitFor();
    });
    await ui.step('verify', async () => {
      await ui.followDevInboxLink(owner, /verify/i, /open verify/i);
      await ui.page.getByRole('heading', { name: 'Verify your e-mail' }).waitFor();
      await ui.expectAccessible();
      await ui.page.getByRole('button', { name: 'Verify' }).click();
      await ui.page.getByText('Your address is verified').waitFor();
    });
  }, 120_000);

  it('signs in with the keyboard alone', async () => {
    await ui.step('keyboard-sign-in', async () => {
      await ui.signOut().catch(() => undefined);
      await ui.visit('/sign-in');
      await ui.expectAccessible();
      await ui.page.getByLabel('E-mail').focus();
      await ui.page.keyboard.type(owner);
      await ui.page.keyboard.press('Tab');
      await ui.page.keyboard.type(PASSWORD);
      await ui.page.keyboard.press('Enter');
      await ui.page.getByRole('heading', { name: 'Organisations' }).waitFor();
      await ui.expectAccessible();
    });
  }, 60_000);

  it('creates an organisation and a project, and the keys shown once work through @platform/client', async () => {
    await ui.step('organisation', async () => {
      await ui.page.getByLabel('New organisation name').fill('Acme');
      await ui.page.getByRole('button', { name: 'Create organisation' }).click();
      await ui.page.getByRole('heading', { name: /Acme/ }).waitFor();
      state.orgId = ui.page.url().split('/orgs/')[1];
      await ui.expectAccessible();
    });
    await ui.step('project', async () => {
      await ui.page.getByLabel('New project name').fill('shop');
      await ui.page.getByRole('button', { name: 'Create project' }).click();
      const dialog = ui.page.getByRole('dialog', { name: 'Project created' });
      await dialog.waitFor();
      await ui.expectAccessible();
      state.secretKey = (await dialog.getByTestId('secret-key').textContent()) ?? undefined;
      await dialog.getByRole('link', { name: /Open shop/ }).click();
      await ui.page.getByRole('heading', { name: 'Keys' }).waitFor();
      state.projectId = ui.page.url().split('/projects/')[1];
      state.publicKey = (await ui.page.getByTestId('public-key').first().textContent()) ?? undefined;
      await ui.expectAccessible();
      mkdirSync(ARTIFACTS, { recursive: true });
      await ui.page.screenshot({ path: path.join(ARTIFACTS, 'console-project.png') });
      // The secret is not on the project page: it was shown once.
      expect(await ui.page.content()).not.toContain(state.secretKey);
    });
    await ui.step('keys-through-client', async () => {
      const client = createClient({
        urls: { notifications: ui.platform.serviceUrl('notifications') },
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
    await ui.step('phone-width', async () => {
      await ui.page.setViewportSize({ width: 390, height: 844 });
      await ui.visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await ui.page.getByRole('heading', { name: 'Keys' }).waitFor();
      const overflow = await ui.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await ui.page.setViewportSize({ width: 1280, height: 800 });
    });
  }, 120_000);

  it('sends a notification and watches it arrive in the live inbox', async () => {
    await ui.step('notifications', async () => {
      await ui.visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await ui.page.getByRole('link', { name: 'Notifications' }).click();
      await ui.page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      await ui.expectAccessible();
      await ui.page.getByLabel('User id to watch').fill('user-1');
      await ui.page.getByRole('button', { name: 'Watch' }).click();
      await ui.page.getByText(/Stream open/).waitFor();
      await ui.page.getByLabel('To user (id; empty: everyone)').fill('user-1');
      await ui.page.getByLabel('Title').fill('Your order shipped');
      await ui.page.getByLabel('Message').fill('It is on its way');
      await ui.page.getByRole('button', { name: 'Send notification' }).click();
      await ui.page.getByTestId('live-inbox').getByText('Your order shipped').waitFor();
      await ui.page.getByRole('cell', { name: 'Your order shipped' }).waitFor();
      await ui.expectAccessible();
    });
    await ui.step('users', async () => {
      // An end user of the project, registered by the builder's app with the project's keys.
      const client = createClient({
        urls: { auth: ui.platform.serviceUrl('auth') },
        keys: {
          apiKey: state.publicKey!,
          secretKey: state.secretKey!,
          tenantId: state.orgId!,
          projectId: state.projectId!,
        },
      });
      const registered = await client.auth.postRegister({ body: { email: 'grace@example.com', password: PASSWORD } });
      expect(registered.response.status).toBe(201);
      await ui.visit(`/orgs/${state.orgId}/projects/${state.projectId}/users`);
      await ui.page.getByLabel('Search by e-mail (starts with)').fill('grace');
      await ui.page.getByLabel('Search by e-mail (starts with)').press('Enter');
      await ui.page.getByRole('button', { name: 'grace@example.com' }).click();
      await ui.page.getByRole('article', { name: 'User grace@example.com' }).waitFor();
      await ui.expectAccessible();
      await ui.page.getByRole('button', { name: 'Disable' }).click();
      await ui.page.getByRole('button', { name: 'Enable' }).waitFor();
      await ui.page.getByRole('cell', { name: 'disabled' }).waitFor();
    });
  }, 90_000);

  it('invites a viewer who accepts and sees no button that would write', async () => {
    await ui.step('invite', async () => {
      await ui.visit(`/orgs/${state.orgId}`);
      await ui.page.getByLabel('Invite by e-mail').fill(viewer);
      await ui.page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await ui.page.getByRole('button', { name: 'Send invitation' }).click();
      await ui.page.getByText('Invitation sent.').waitFor();
      await ui.page.getByRole('cell', { name: viewer }).waitFor();
      await ui.expectAccessible();
      await ui.signOut();
    });
    await ui.step('accept', async () => {
      await ui.visit('/sign-up');
      await ui.page.getByLabel('E-mail').fill(viewer);
      await ui.page.getByLabel('Password').fill(PASSWORD);
      await ui.page.getByRole('button', { name: 'Sign up' }).click();
      await ui.page.getByText('Your account is ready').waitFor();
      await ui.followDevInboxLink(viewer, /invit/i, /open accept/i);
      await ui.page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
      await ui.expectAccessible();
      await ui.page.getByRole('button', { name: 'Accept invitation' }).click();
      await ui.page.getByRole('heading', { name: /Acme/ }).waitFor();
    });
    await ui.step('viewer-sees-no-writes', async () => {
      await ui.page.getByRole('link', { name: 'shop' }).waitFor();
      expect(await ui.page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
      expect(await ui.page.getByRole('heading', { name: 'Invitations' }).count()).toBe(0);
      expect(await ui.page.getByRole('heading', { name: 'Audit log' }).count()).toBe(0);
      await ui.page.getByRole('link', { name: 'shop' }).click();
      await ui.page.getByRole('heading', { name: 'Project settings' }).waitFor();
      await ui.expectAccessible();
      expect(await ui.page.getByRole('heading', { name: 'Keys' }).count()).toBe(0);
      expect(await ui.page.getByRole('button', { name: /Save setting|Delete project|Rename project/ }).count()).toBe(0);
      await ui.signOut();
    });
  }, 150_000);

  it('deletes the project: its keys stop working and every service confirms the erasure', async () => {
    await ui.step('delete', async () => {
      await ui.signIn(owner);
      await ui.visit(`/orgs/${state.orgId}/projects/${state.projectId}`);
      await ui.page.getByRole('button', { name: 'Delete project…' }).click();
      const dialog = ui.page.getByRole('dialog', { name: 'Delete this project?' });
      await dialog.waitFor();
      await expect(dialog.getByRole('button', { name: 'Delete project' }).isDisabled()).resolves.toBe(true);
      await dialog.getByLabel('Type shop to confirm').fill('shop');
      await dialog.getByRole('button', { name: 'Delete project' }).click();
      await ui.page.getByRole('heading', { name: 'Project erased' }).waitFor({ timeout: 60_000 });
      await ui.expectAccessible();
    });
    await ui.step('data-gone', async () => {
      const client = createClient({
        urls: { notifications: ui.platform.serviceUrl('notifications') },
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
