import { generateKeyPairSync, randomBytes } from 'node:crypto';
import request from 'supertest';
import { PLATFORM_EVENTS, type ErasingService, type EventEnvelope, type MemberActionData } from '@platform/events';
import { memberToken, type MemberTokenOptions } from './member-token';
import type { TestProject, TestService } from './test-service';
import { waitFor } from './wait-for';

export interface MemberRequest {
  method: 'post' | 'put' | 'patch' | 'delete';
  path: string;
  body?: object;
}

export interface MemberTokenSuiteOptions<Shared> {
  service: ErasingService;
  start(): Promise<TestService<Shared>>;
  /** Whatever a project needs before the write can succeed (a vendor key, ...), done with its keys. */
  prepare?(svc: TestService<Shared>, project: TestProject): Promise<void>;
  /** A write that leaves `marker` readable through `read`, its success status and its route pattern. */
  write(marker: string): MemberRequest;
  writeStatus: number;
  writeRoute: string;
  /** A read (GET) whose body shows what `write(marker)` left. */
  read(marker: string): string;
  /** How the marker shows in the read's body, when the write cannot take it as it is (a number). */
  visible?(marker: string): string;
}

const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;

/**
 * What every service does with console member tokens (docs/control-plane-contract.md): each
 * role on one read and one write, refused tokens, project isolation, and the member action
 * each write publishes.
 */
export function describeMemberTokens<Shared>(options: MemberTokenSuiteOptions<Shared>): void {
  describe(`${options.service}: member tokens`, () => {
    let svc: TestService<Shared>;
    let project: TestProject;
    let other: TestProject;

    const newMarker = () => `m${randomBytes(5).toString('hex')}`;
    const shows = (body: unknown, marker: string) =>
      JSON.stringify(body).includes(options.visible ? options.visible(marker) : marker);
    const send = (spec: MemberRequest, headers: Record<string, string>) => {
      const call = request(svc.app)[spec.method](spec.path).set(headers);
      return spec.body ? call.send(spec.body) : call;
    };
    const read = (path: string, headers: Record<string, string>) => request(svc.app).get(path).set(headers);
    const bearer = (p: TestProject, token: MemberTokenOptions = {}) => ({
      authorization: `Bearer ${memberToken(p, token)}`,
    });

    beforeAll(async () => {
      svc = await options.start();
      project = await svc.createProject();
      other = await svc.createProject();
      for (const p of [project, other]) await options.prepare?.(svc, p);
    });
    afterAll(() => svc?.close());

    it.each(ROLES)(
      'when a %s reads and writes with a member token, then only a viewer is refused the write',
      async (role) => {
        const marker = newMarker();
        const write = await send(options.write(marker), bearer(project, { role }));
        expect(write.status).toBe(role === 'viewer' ? 403 : options.writeStatus);
        if (role === 'viewer') expect(write.body.error.code).toBe('FORBIDDEN');
        const seen = await read(options.read(marker), bearer(project, { role: 'viewer' }));
        expect(seen.status).toBe(200);
        expect(shows(seen.body, marker)).toBe(role !== 'viewer');
      },
    );

    it.each([
      ['expired', { ttlSeconds: -30 }],
      ['for another audience', { audience: 'platform-console' }],
      ['from another issuer', { issuer: 'platform-auth' }],
      ['of another type', { typ: 'access' }],
      ['with an unknown role', { role: 'superuser' }],
      ['living longer than five minutes', { ttlSeconds: 3600 }],
      [
        'signed with another key',
        {
          privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        },
      ],
    ] as [string, MemberTokenOptions][])(
      'when the member token is %s, then it is refused with 401',
      async (_, token) => {
        const res = await read(options.read(newMarker()), bearer(project, { role: 'owner', ...token }));
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      },
    );

    it("when a member token of one project is used, then it sees that project's data only and never works with another's headers", async () => {
      const marker = newMarker();
      expect((await send(options.write(marker), project.headers)).status).toBe(options.writeStatus);
      const own = await read(options.read(marker), bearer(project));
      expect(shows(own.body, marker)).toBe(true);
      const foreign = await read(options.read(marker), bearer(other));
      expect(foreign.status).toBe(200);
      expect(shows(foreign.body, marker)).toBe(false);
      const mixed = { ...bearer(project), 'x-tenant-id': other.tenantId, 'x-project-id': other.projectId };
      expect((await read(options.read(marker), mixed)).status).toBe(401);
      expect((await send(options.write(newMarker()), mixed)).status).toBe(401);
      const sameTenantOtherProject = { ...bearer(project), 'x-project-id': other.projectId };
      expect((await read(options.read(marker), sameTenantOtherProject)).status).toBe(401);
    });

    it('when a member writes, then the service publishes the action with its route pattern, and reads publish nothing', async () => {
      const memberId = `member-${newMarker()}`;
      const token = bearer(project, { role: 'developer', memberId, email: 'dev@example.com' });
      const marker = newMarker();
      expect((await read(options.read(marker), token)).status).toBe(200);
      const written = await send(options.write(marker), { ...token, 'user-agent': 'console-test/1' });
      expect(written.status).toBe(options.writeStatus);
      const actions = await waitFor(async () => {
        const rows: { envelope: EventEnvelope<MemberActionData> }[] = await svc.deps
          .db('outbox')
          .where('type', PLATFORM_EVENTS.memberAction)
          .whereRaw(`envelope->'data'->>'memberId' = ?`, [memberId])
          .select('envelope');
        return rows.length ? rows.map((r) => r.envelope) : undefined;
      });
      expect(actions).toHaveLength(1);
      expect(actions[0]).toMatchObject({
        tenantId: project.tenantId,
        projectId: project.projectId,
        data: {
          tenantId: project.tenantId,
          projectId: project.projectId,
          memberId,
          memberEmail: 'dev@example.com',
          role: 'developer',
          service: options.service,
          method: options.write(marker).method.toUpperCase(),
          route: options.writeRoute,
          status: options.writeStatus,
          userAgent: 'console-test/1',
        },
      });
      expect(JSON.stringify(actions[0].data)).not.toContain(marker);
    });
  });
}
