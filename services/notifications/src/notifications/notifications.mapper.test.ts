import { toNotification } from './notifications.mapper';
import type { NotificationRow } from './notifications.repository';

const row: NotificationRow = {
  id: '0b6c2f9e-6a43-4d5e-9d3b-0f1e2d3c4b5a',
  user_id: null,
  title: 'Title',
  message: 'Message',
  type: 'warning',
  data: { a: 1 },
  read_at: null,
  created_at: new Date('2026-11-22T10:00:00Z'),
  expires_at: new Date('2026-12-22T10:00:00Z'),
  deleted_at: null,
};

describe('toNotification', () => {
  it('when a row is unread, then read is false and readAt null, with timestamps as ISO strings with milliseconds', () => {
    expect(toNotification(row)).toEqual({
      id: row.id,
      userId: null,
      title: 'Title',
      message: 'Message',
      type: 'warning',
      data: { a: 1 },
      read: false,
      readAt: null,
      createdAt: '2026-11-22T10:00:00.000Z',
      expiresAt: '2026-12-22T10:00:00.000Z',
      deletedAt: null,
    });
  });

  it('when a row has read_at, then read is true and readAt is that time', () => {
    const read = toNotification({ ...row, user_id: 'u1', read_at: new Date('2026-11-23T08:30:00.123Z') });
    expect(read).toMatchObject({ userId: 'u1', read: true, readAt: '2026-11-23T08:30:00.123Z' });
  });

  it('when a row carries columns beyond the resource (such as a list total), then they are not exposed', () => {
    expect(Object.keys(toNotification({ ...row, total: 7 } as NotificationRow))).not.toContain('total');
  });
});
