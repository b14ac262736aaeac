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
    // Shares of 3 slots: 1 for each of up to two projects sending (3 / (2 + 1)), then at least 1.
    const held1 = held();
    const held2 = held();
    const held3 = held();
    const running = [slots.run('p1', held1.work), slots.run('p2', held2.work), slots.run('p3', held3.work)];
    await expect(slots.run('p4', async () => 'x')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many sends in progress at the moment; try again',
    });
    held3.finish();
    await running[2];
    await expect(slots.run('p4', async () => 'now')).resolves.toBe('now');
    held1.finish();
    held2.finish();
    await Promise.all(running);
  });

  it('when projects whose sends hang hold slots, then each holds at most its share and a newcomer still finds one', async () => {
    const slots = new ProjectSendSlots(4, 8);
    const stuck = Array.from({ length: 8 }, () => held());
    const first = stuck.slice(0, 4).map((h) => slots.run('a', h.work));
    expect(slots.holding('a')).toBe(4); // alone: min(4, 8 / 2)
    const second = stuck.slice(4).map((h) => slots.run('b', h.work).catch((error: unknown) => error));
    expect(slots.holding('b')).toBe(2); // beside a: 8 / 3
    await expect(slots.run('c', async () => 'sent')).resolves.toBe('sent');
    for (const h of stuck) h.finish();
    await Promise.all([...first, ...second]);
  });

  it('when a send asks for more slots for its recipients, then it gets its share and gives them back', async () => {
    const slots = new ProjectSendSlots(4, 8);
    await slots.run('p', async (more) => {
      const extra = [more(), more(), more(), more()];
      expect(extra.filter(Boolean)).toHaveLength(3);
      expect(slots.holding('p')).toBe(4);
      for (const release of extra) release?.();
    });
    expect(slots.holding()).toBe(0);
  });

  it('when a send fails, then its slot is given back', async () => {
    const slots = new ProjectSendSlots(1);
    await expect(slots.run('p', async () => Promise.reject(new AppError('VENDOR_ERROR', 'x')))).rejects.toThrow('x');
    await expect(slots.run('p', async () => 'ok')).resolves.toBe('ok');
  });
});
