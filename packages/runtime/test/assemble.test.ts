import { Router } from 'express';
import request from 'supertest';
import { createTestService } from '@platform/testkit';
import type { ServiceDefinition, Job } from '../src';

/** A built service whose jobs and close() record what happens to them. */
function recordingService(log: string[], jobs: Job[]): ServiceDefinition<{ log: string[] }> {
  return {
    name: 'template',
    defaultPort: 0,
    migrations: [],
    build: () => {
      const routes = Router();
      routes.get('/ping', (_req, res) => void res.json({ pong: true }));
      return { routes, openapi: {}, jobs, shared: { log }, close: async () => void log.push('closed') };
    },
  };
}

const job = (log: string[], name: string): Job => ({
  name,
  async start() {
    log.push(`start ${name}`);
    return async () => void log.push(`stop ${name}`);
  },
});

describe('createTestService with build()', () => {
  it('when a test starts the jobs and closes the service, then jobs stop in reverse order before close()', async () => {
    const log: string[] = [];
    const svc = await createTestService(recordingService(log, [job(log, 'a'), job(log, 'b')]));
    expect((await request(svc.app).get('/v1/ping')).body).toEqual({ pong: true });
    expect(log).toEqual([]);
    await svc.startJobs();
    await svc.close();
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a', 'closed']);
    expect(svc.parts?.shared.log).toBe(log);
  });

  it('when a job fails to start, then the jobs already started are stopped again and the error surfaces', async () => {
    const log: string[] = [];
    const failing: Job = {
      name: 'broken',
      start: async () => {
        throw new Error('cannot start');
      },
    };
    const svc = await createTestService(recordingService(log, [job(log, 'a'), failing, job(log, 'c')]));
    await expect(svc.startJobs()).rejects.toThrow('cannot start');
    expect(log).toEqual(['start a', 'stop a']);
    await svc.close();
    expect(log).toEqual(['start a', 'stop a', 'closed']);
  });

  it('when a test stops its jobs itself, then close() does not stop them twice', async () => {
    const log: string[] = [];
    const svc = await createTestService(recordingService(log, [job(log, 'a')]));
    const stop = await svc.startJobs();
    await stop();
    await svc.close();
    expect(log).toEqual(['start a', 'stop a', 'closed']);
  });
});
