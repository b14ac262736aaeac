import { PLATFORM_EVENTS, type InvitationCreatedData } from '@platform/events';
import { waitFor } from '@platform/testkit';
import type { RunningPlatform } from './platform';

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

/** fetch + JSON against a service's public API. */
export async function api(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read into answers
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export interface BuilderProject {
  organisationId: string;
  projectId: string;
  /** The project's single credential `<public>.<secret>`. */
  credential: string;
  keyHeaders: Record<string, string>;
  secretKey: string;
  /** Console session tokens of one member per role. */
  members: Record<Role, { token: string; email: string }>;
}

/** An organisation with a project, made through the console's API by its owner, and one member per other role. */
export async function builderProject(platform: RunningPlatform, name = 'Acme'): Promise<BuilderProject> {
  const consoleUrl = platform.urls.console;
  const owner = await platform.signIn();
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const org = await api(`${consoleUrl}/organisations`, {
    method: 'POST',
    headers: bearer(owner.token),
    body: { name },
  });
  if (org.status !== 201) throw new Error(`organisation: ${org.status} ${JSON.stringify(org.body)}`);
  const project = await api(`${consoleUrl}/organisations/${org.body.id}/projects`, {
    method: 'POST',
    headers: bearer(owner.token),
    body: { name: `${name} app` },
  });
  if (project.status !== 201) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  const members = { owner: { token: owner.token, email: owner.email } } as BuilderProject['members'];
  for (const role of ['admin', 'developer', 'viewer'] as const) {
    const member = await platform.signIn();
    const invited = await api(`${consoleUrl}/organisations/${org.body.id}/invitations`, {
      method: 'POST',
      headers: bearer(owner.token),
      body: { email: member.email, role },
    });
    if (invited.status !== 201) throw new Error(`invitation: ${invited.status}`);
    const event = () =>
      platform.published.find(
        (e) =>
          e.type === PLATFORM_EVENTS.invitationCreated &&
          (e.data as InvitationCreatedData).invitationId === invited.body.id,
      );
    await waitFor(() => event() !== undefined);
    const token = new URL((event()!.data as InvitationCreatedData).link).searchParams.get('token');
    const accepted = await api(`${consoleUrl}/invitations/accept`, {
      method: 'POST',
      headers: bearer(member.token),
      body: { token },
    });
    if (accepted.status !== 200) throw new Error(`acceptance: ${accepted.status}`);
    members[role] = { token: member.token, email: member.email };
  }
  const { publicKey, secretKey } = project.body.key as { publicKey: string; secretKey: string };
  return {
    organisationId: org.body.id,
    projectId: project.body.id,
    credential: `${publicKey}.${secretKey}`,
    secretKey,
    keyHeaders: {
      'x-api-key': publicKey,
      'x-secret-key': secretKey,
      'x-tenant-id': org.body.id,
      'x-project-id': project.body.id,
    },
    members,
  };
}
