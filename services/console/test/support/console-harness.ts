import { randomBytes, randomUUID } from 'node:crypto';
import express, { type Express, type Request, type Response } from 'express';
import request from 'supertest';
import { PLATFORM_EVENTS, type EventEnvelope, type InvitationCreatedData } from '@platform/events';
import { createTestService, testJwtKeys, waitFor, type TestService } from '@platform/testkit';
import { errorHandler, projectKeys, signAccessToken } from '@platform/tenancy';
import { consoleService, type ConsoleShared } from '../../src';
import type { Role } from '../../src/access/roles';

export type Console = TestService<ConsoleShared>;

export interface SignedIn {
  userId: string;
  email: string;
  auth: { authorization: string };
}

/** Events the console published, as the bus delivered them (the Mailer's view of invitations). */
export const published: EventEnvelope[] = [];

/** The console with its relay running, every event it sends recorded in `published`. */
export async function startConsole(env: Record<string, string> = {}): Promise<Console> {
  // Every test request comes from one address: the limits apply only when a test sets them.
  const limits = { CONSOLE_SIGNIN_LIMIT_PER_MINUTE: '1000000', CONSOLE_INVITATION_LIMIT_PER_HOUR: '1000000' };
  const svc = await createTestService(consoleService, { env: { ...limits, ...env } });
  await svc.deps.bus.subscribe({
    queue: 'console-test',
    topics: ['platform.#'],
    handler: async (event) => void published.push(event),
  });
  svc.deps.relay.start();
  return svc;
}

/** A member signed in as Authentication would sign them in: an access token of the reserved project. */
export async function signIn(
  svc: Console,
  email = `m-${randomBytes(4).toString('hex')}@example.com`,
): Promise<SignedIn> {
  const reserved = await svc.parts.shared.reserved.ensure();
  const userId = randomUUID();
  const token = signAccessToken(
    { userId, email, tokenVersion: 0, tenantId: reserved.tenantId, projectId: reserved.projectId },
    testJwtKeys().privateKey,
  );
  return { userId, email, auth: { authorization: `Bearer ${token}` } };
}

export interface Org {
  id: string;
  owner: SignedIn;
  /** One signed-in member per role (the owner included). */
  as: Record<Role, SignedIn>;
}

/** An organisation made through the API by its owner, with one member of each other role. */
export async function orgWithRoles(svc: Console): Promise<Org> {
  const owner = await signIn(svc);
  const created = await request(svc.app).post('/v1/organisations').set(owner.auth).send({ name: 'Acme' });
  if (created.status !== 201) throw new Error(`organisation not created: ${created.status}`);
  const as = { owner } as Record<Role, SignedIn>;
  for (const role of ['admin', 'developer', 'viewer'] as const) {
    as[role] = await signIn(svc);
    await joinAs(svc, created.body.id, owner, as[role], role);
  }
  return { id: created.body.id, owner, as };
}

/** Invites `member` and has them accept, through the API; the token is taken from the outbox event. */
export async function joinAs(
  svc: Console,
  orgId: string,
  inviter: SignedIn,
  member: SignedIn,
  role: Role,
): Promise<void> {
  const invited = await request(svc.app)
    .post(`/v1/organisations/${orgId}/invitations`)
    .set(inviter.auth)
    .send({ email: member.email, role });
  if (invited.status !== 201) throw new Error(`invitation refused: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = await invitationToken(invited.body.id);
  const accepted = await request(svc.app).post('/v1/invitations/accept').set(member.auth).send({ token });
  if (accepted.status !== 200) throw new Error(`invitation not accepted: ${accepted.status}`);
}

/** The single-use token of an invitation, read from the link of its outbox event (what the Mailer sends). */
export async function invitationToken(invitationId: string): Promise<string> {
  const sent = () =>
    published.find(
      (e) =>
        e.type === PLATFORM_EVENTS.invitationCreated && (e.data as InvitationCreatedData).invitationId === invitationId,
    );
  await waitFor(() => sent() !== undefined);
  return new URL((sent()!.data as InvitationCreatedData).link).searchParams.get('token')!;
}

/** An app that checks keys as every service does (the shared key check over the same directory). */
export function keyCheckedApp(svc: Console): Express {
  const app = express();
  app.get('/v1/ping', projectKeys(svc.deps), (req: Request, res: Response) => {
    res.json({ projectId: req.tenant?.projectId });
  });
  app.use(errorHandler(svc.deps.logger));
  return app;
}

export const keyHeaders = (
  project: { organisationId: string; id: string },
  key: { publicKey: string; secretKey: string },
) => ({
  'x-api-key': key.publicKey,
  'x-secret-key': key.secretKey,
  'x-tenant-id': project.organisationId,
  'x-project-id': project.id,
});
