import { memorySessionStore, SessionManager, type Session } from './session';

const token = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;

test('when a call was refused with a token another call has already replaced, then no second refresh is made', async () => {
  const store = memorySessionStore({ accessToken: 'new', refreshToken: 'r2' });
  const refresh = jest.fn<Promise<Session | null>, [string]>();
  const manager = new SessionManager(store, refresh);
  expect(await manager.renew('old')).toEqual({ accessToken: 'new', refreshToken: 'r2' });
  expect(refresh).not.toHaveBeenCalled();
});

test('when calls renew while a refresh is in flight, then they share it and the refresh token is presented once', async () => {
  const store = memorySessionStore({ accessToken: 'a1', refreshToken: 'r1' });
  let finish!: (session: Session) => void;
  const refresh = jest.fn((_token: string) => new Promise<Session | null>((resolve) => (finish = resolve)));
  const manager = new SessionManager(store, refresh);
  const renewals = [manager.renew('a1'), manager.renew('a1'), manager.renew('a1')];
  await Promise.resolve();
  await Promise.resolve();
  finish({ accessToken: 'a2', refreshToken: 'r2' });
  expect(await Promise.all(renewals)).toEqual(Array(3).fill({ accessToken: 'a2', refreshToken: 'r2' }));
  expect(refresh.mock.calls).toEqual([['r1']]);
  expect(await store.get()).toEqual({ accessToken: 'a2', refreshToken: 'r2' });
});

test('when the access token is about to expire, then the session is refreshed before the call', async () => {
  const soon = token(Math.floor(Date.now() / 1000) + 5);
  const store = memorySessionStore({ accessToken: soon, refreshToken: 'r1' });
  const manager = new SessionManager(store, async () => ({ accessToken: 'fresh', refreshToken: 'r2' }));
  expect((await manager.current())?.accessToken).toBe('fresh');
});

test('when the access token has time left, then it is used as it is', async () => {
  const later = token(Math.floor(Date.now() / 1000) + 600);
  const refresh = jest.fn();
  const manager = new SessionManager(memorySessionStore({ accessToken: later, refreshToken: 'r1' }), refresh);
  expect((await manager.current())?.accessToken).toBe(later);
  expect(refresh).not.toHaveBeenCalled();
});
