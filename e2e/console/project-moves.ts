/** Moves of the browser tests beyond the account: a project made in the pages, an invitation, the project's keys in a script. */
import { createClient, type PlatformClient } from '@platform/client';
import type { BrowserJourney } from './browser-journey';

/** A project as its creator saw it: ids and the key pair shown once. */
export interface CreatedProject {
  orgId: string;
  projectId: string;
  publicKey: string;
  secretKey: string;
}

/** An organisation and a project made in the pages by the signed-in member, left on the project home. */
export async function createProject(
  ui: BrowserJourney,
  organisation: string,
  project: string,
): Promise<CreatedProject> {
  const { page } = ui;
  await ui.visit('/');
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

/** Invites `email` with `role` from the organisation page; the inviter stays signed in. */
export async function invite(
  ui: BrowserJourney,
  orgId: string,
  email: string,
  role: 'admin' | 'developer' | 'viewer',
): Promise<void> {
  await ui.visit(`/orgs/${orgId}`);
  await ui.page.getByLabel('Invite by e-mail').fill(email);
  await ui.page.getByLabel('Role', { exact: true }).selectOption(role);
  await ui.page.getByRole('button', { name: 'Send invitation' }).click();
  await ui.page.getByText('Invitation sent.').waitFor();
}

/** The services with a project's own keys, as a builder's script holds them. */
export function clientOf(ui: BrowserJourney, project: CreatedProject): PlatformClient {
  return createClient({
    urls: {
      auth: ui.platform.serviceUrl('auth'),
      billing: ui.platform.serviceUrl('billing'),
      mailer: ui.platform.serviceUrl('mailer'),
      notifications: ui.platform.serviceUrl('notifications'),
    },
    keys: {
      apiKey: project.publicKey,
      secretKey: project.secretKey,
      tenantId: project.orgId,
      projectId: project.projectId,
    },
  });
}
