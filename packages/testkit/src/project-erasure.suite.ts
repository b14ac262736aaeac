import { OutboxRelay, PLATFORM_EVENTS, type ErasingService } from '@platform/events';
import { assembleService, type ServiceDefinition } from '@platform/runtime';
import type { Tenant } from '@platform/db';
import { describeOnRabbitMq, erasureLogger, onInProcessBus, startJob, type StartOnBus } from './erasure-suite-setup';
import { erasureConsole, projectOutboxRows, projectRows, tableOwnership } from './project-erasure';
import type { TestProject, TestService } from './test-service';

export interface ProjectErasureSuiteOptions<Shared> {
  service: ErasingService;
  definition: ServiceDefinition<Shared>;
  /** The service's erasure list, as its job hands it to `startProjectErasure`. */
  tables: readonly string[];
  /** Starts the service the way its other tests do, on the given bus. */
  start: StartOnBus<Shared>;
  /** Writes a project's data through the service's API. */
  seed(svc: TestService<Shared>, project: TestProject): Promise<void>;
  /** The tables `seed` fills: each must hold rows of both projects before the erasure. */
  seeded: string[];
  /** Tables that belong to no project by design (platform-wide news), left out of the erasure. */
  shared?: string[];
}

const ERASURE_JOB = 'project erasure';

const confirmationsInOutbox = (svc: TestService<unknown>, owner: Tenant) =>
  svc.deps
    .db('outbox')
    .where('type', PLATFORM_EVENTS.projectErased)
    .whereRaw(`envelope->'data'->>'projectId' = ?`, [owner.projectId])
    .count<{ count: string }>('* as count')
    .first()
    .then((row) => Number(row?.count));

/**
 * The tests every service's project erasure passes: its list covers its database, the erased
 * project's rows are all gone while a second project of the same tenant keeps every one of its
 * own, a redelivered request changes nothing, and a service that was down when the request was
 * published erases when it starts (its durable queue on RabbitMQ kept the request).
 */
export function describeProjectErasure<Shared>(options: ProjectErasureSuiteOptions<Shared>): void {
  const seededRows = async (svc: TestService<Shared>, project: TestProject) => {
    await options.seed(svc, project);
    const rows = await projectRows(svc.deps.db, project);
    for (const table of options.seeded) if (!rows[table]) throw new Error(`the seed left ${table} empty`);
    return rows;
  };
  const empty = (rows: Record<string, number>) => Object.fromEntries(Object.keys(rows).map((table) => [table, 0]));

  describe(`${options.service}: project erasure`, () => {
    // The relay carries the service's confirmations to the bus.
    const running = onInProcessBus(options.start, ERASURE_JOB, { relay: true });

    it('when the erasure list is compared with the database, then it names every table of a project and every other table goes with one by cascade', async () => {
      const { svc } = running;
      const { owned, unowned } = await tableOwnership(svc.deps.db);
      expect([...options.tables].sort()).toEqual(owned);
      for (const { table, cascadesFrom } of unowned.filter((t) => !options.shared?.includes(t.table)))
        expect({ table, cascades: cascadesFrom.length > 0 }).toEqual({ table, cascades: true });
    });

    it('when a project is erased, then none of its rows remain, a second project of the same tenant keeps all of its, and a redelivery changes nothing', async () => {
      const { svc, bus } = running;
      const erased = await svc.createProject();
      const kept = await svc.createProject(undefined, erased);
      expect(kept.tenantId).toBe(erased.tenantId);
      await seededRows(svc, erased);
      const keptRows = await seededRows(svc, kept);
      const console = await erasureConsole(bus);

      const request = await console.request(erased);
      const confirmation = await console.confirmation(erased, options.service);

      expect(confirmation).toMatchObject({
        type: PLATFORM_EVENTS.projectErased,
        tenantId: erased.tenantId,
        projectId: erased.projectId,
        data: { tenantId: erased.tenantId, projectId: erased.projectId, service: options.service },
      });
      const erasedRows = await projectRows(svc.deps.db, erased);
      expect(erasedRows).toEqual(empty(erasedRows));
      expect(await projectOutboxRows(svc.deps.db, erased)).toBe(0);
      expect(await projectRows(svc.deps.db, kept)).toEqual(keptRows);

      await console.request(erased, request);
      await bus.drain();
      expect(await confirmationsInOutbox(svc, erased)).toBe(1);
      expect(await projectRows(svc.deps.db, kept)).toEqual(keptRows);
    });
  });

  describeOnRabbitMq(`${options.service}: project erasure through RabbitMQ`, options.start, ({ newBus, start }) => {
    it('when the service is down while a project is deleted, then it erases the project when it starts again', async () => {
      const first = await newBus();
      const svc = await start(first);
      const erased = await svc.createProject();
      const kept = await svc.createProject(undefined, erased);
      await seededRows(svc, erased);
      const keptRows = await seededRows(svc, kept);
      // Running once declares the service's durable queue; then the service goes away.
      const stop = await startJob(svc, ERASURE_JOB);
      await stop();
      await first.close();

      const console = await erasureConsole(await newBus());
      await console.request(erased);

      const second = await newBus();
      const restartedDeps = {
        ...svc.deps,
        bus: second,
        relay: new OutboxRelay(svc.deps.db, second, erasureLogger, { pollIntervalMs: 50 }),
      };
      const restarted = assembleService(options.definition, restartedDeps);
      restartedDeps.relay.start();
      const stopRestarted = await restarted.startJobs();
      try {
        await console.confirmation(erased, options.service);
      } finally {
        await stopRestarted();
        await restartedDeps.relay.stop();
        await restarted.close();
      }
      const erasedRows = await projectRows(svc.deps.db, erased);
      expect(erasedRows).toEqual(empty(erasedRows));
      expect(await projectOutboxRows(svc.deps.db, erased)).toBe(0);
      expect(await projectRows(svc.deps.db, kept)).toEqual(keptRows);
    });
  });
}
