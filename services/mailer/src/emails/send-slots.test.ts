import { AppError } from '@platform/tenancy';
import { ProjectSendSlots } from './send-slots';

/** A piece of work that ends when the test says so. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('per-project send slots', () => {
  it('when a project has its limit of sends in flight, then its next send is 429 while other projects still send', async () => {
    const slots = new ProjectSendSlots(2);
    const first = held();
    const second = held();
    const running = [slots.run('p1', first.work), slots.run('p1', second.work)];
    await expect(slots.run('p1', async () => 'x')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(slots.run('p2', async () => 'other')).resolves.toBe('other');
    first.finish();
    second.finish();
    await Promise.all(running);
    await expect(slots.run('p1', async () => 'again')).resolves.toBe('again');
  });

  it("when all projects together have the replica's total in flight, then another project's send is 429 too", async () => {
    const slots = new ProjectSendSlots(2, 3);
    const held1 = [held(), held()];
    const held2 = held();
    const running = [...held1.map((h) => slots.run('p1', h.work)), slots.run('p2', held2.work)];
    await expect(slots.run('p3', async () => 'x')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many sends in progress at the moment; try again',
    });
    held2.finish();
    await running[2];
    await expect(slots.run('p3', async () => 'now')).resolves.toBe('now');
    for (const h of held1) h.finish();
    await Promise.all(running);
  });

  it('when a send fails, then its slot is given back', async () => {
    const slots = new ProjectSendSlots(1);
    await expect(slots.run('p', async () => Promise.reject(new AppError('VENDOR_ERROR', 'x')))).rejects.toThrow('x');
    await expect(slots.run('p', async () => 'ok')).resolves.toBe('ok');
  });
});
