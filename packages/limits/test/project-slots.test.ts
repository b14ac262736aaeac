import { ProjectSlots } from '../src/project-slots';

describe('ProjectSlots', () => {
  it('when one project holds its whole share, then it gets no more while another project still gets a slot', () => {
    const slots = new ProjectSlots({ total: 4, perProject: 2 });
    expect(slots.tryAcquire('x')).not.toBeNull();
    expect(slots.tryAcquire('x')).not.toBeNull();
    expect(slots.tryAcquire('x')).toBeNull();
    expect(slots.tryAcquire('y')).not.toBeNull();
    expect(slots.holding()).toBe(3);
  });

  it('when all slots are held, then nobody gets one until a slot is released', () => {
    const slots = new ProjectSlots({ total: 2, perProject: 2 });
    const release = slots.tryAcquire('x')!;
    slots.tryAcquire('y');
    expect(slots.tryAcquire('z')).toBeNull();
    release();
    release();
    expect(slots.holding('x')).toBe(0);
    expect(slots.tryAcquire('z')).not.toBeNull();
  });
});
