import { randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_EVENTS,
  envelopeOf,
  type ErasedUser,
  type ErasingService,
  type EventEnvelope,
  type UserDeletedData,
} from '@platform/events';
import { describeOnRabbitMq, onInProcessBus, startJob, type StartOnBus } from './erasure-suite-setup';
import type { TestProject, TestService } from './test-service';
import { personalColumns } from './personal-columns';
import { waitFor } from './wait-for';

export interface UserErasureSuiteOptions<Shared> {
  service: ErasingService;
  /** Starts the service the way its other tests do, on the given bus. */
  start: StartOnBus<Shared>;
  /** Writes data of the user in the project through the service's API. */
  seed(svc: TestService<Shared>, project: TestProject, user: ErasedUser): Promise<void>;
  /** How many rows (or values) of the service still name or reach the user in the project. */
  held(svc: TestService<Shared>, project: TestProject, user: ErasedUser): Promise<number>;
  /** Every column that can name a person (`personalColumns`), with what the erasure does with it. */
  personalColumns: Record<string, string>;
}

const USER_ERASURE_JOB = 'user erasure';

const newUser = (): ErasedUser => ({
  userId: randomUUID(),
  email: `Person-${randomBytes(4).toString('hex')}@Example.com`,
});

const deletion = (project: TestProject, user: ErasedUser): EventEnvelope<UserDeletedData> =>
  envelopeOf<UserDeletedData>({
    type: AUTH_EVENTS.userDeleted,
    tenantId: project.tenantId,
    projectId: project.projectId,
    data: { userId: user.userId, reason: 'deleted', email: user.email },
  });

/**
 * The tests every service's user erasure passes: on `auth.user.deleted` what it held of the user
 * in that project is gone, another user of the project and the same user id and address in a
 * second project of the tenant keep theirs, a redelivered event changes nothing (it was handled
 * once), and the same holds on RabbitMQ.
 */
export function describeUserErasure<Shared>(options: UserErasureSuiteOptions<Shared>): void {
  const seeded = async (svc: TestService<Shared>, project: TestProject, user: ErasedUser) => {
    await options.seed(svc, project, user);
    const held = await options.held(svc, project, user);
    if (!held) throw new Error('the seed left nothing of the user');
    return held;
  };

  describe(`${options.service}: user erasure`, () => {
    const running = onInProcessBus(options.start, USER_ERASURE_JOB);

    it('when the columns that can name a person are listed, then the erasure has decided about each', async () => {
      const { svc } = running;
      expect(Object.keys(options.personalColumns).sort()).toEqual(await personalColumns(svc.deps.db));
    });

    it("when a user is deleted, then what the service held of them is gone; another user's and another project's stay; a redelivery changes nothing", async () => {
      const { svc, bus } = running;
      const project = await svc.createProject();
      const sibling = await svc.createProject(undefined, project);
      const erased = newUser();
      const kept = newUser();
      await seeded(svc, project, erased);
      const keptHeld = await seeded(svc, project, kept);
      const siblingHeld = await seeded(svc, sibling, erased);

      const event = deletion(project, erased);
      await bus.publish(event);
      await waitFor(async () => (await options.held(svc, project, erased)) === 0);
      expect(await options.held(svc, project, kept)).toBe(keptHeld);
      expect(await options.held(svc, sibling, erased)).toBe(siblingHeld);

      // New data of the same id, then the same event again: it was handled once, so it stays.
      const again = await seeded(svc, project, erased);
      await bus.publish(event);
      await bus.drain();
      expect(await options.held(svc, project, erased)).toBe(again);
    });

    it('when the event names no user or no valid project, then it is acknowledged and nothing is erased', async () => {
      const { svc, bus } = running;
      const project = await svc.createProject();
      const user = newUser();
      const held = await seeded(svc, project, user);
      await bus.publish(envelopeOf({ ...deletion(project, user), data: { reason: 'deleted', email: user.email } }));
      await bus.publish({ ...deletion(project, user), projectId: 'not-a-project' });
      await bus.drain();
      expect(await options.held(svc, project, user)).toBe(held);
    });
  });

  describeOnRabbitMq(`${options.service}: user erasure through RabbitMQ`, options.start, ({ newBus, start }) => {
    it('when Authentication publishes the deletion on the broker, then the service erases the user', async () => {
      const svc = await start(await newBus());
      await startJob(svc, USER_ERASURE_JOB);
      const project = await svc.createProject();
      const erased = newUser();
      const kept = newUser();
      await seeded(svc, project, erased);
      const keptHeld = await seeded(svc, project, kept);

      await (await newBus()).publish(deletion(project, erased));
      await waitFor(async () => (await options.held(svc, project, erased)) === 0, { timeoutMs: 20_000 });
      expect(await options.held(svc, project, kept)).toBe(keptHeld);
    });
  });
}
