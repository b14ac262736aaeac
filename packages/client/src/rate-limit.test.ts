import { readRateLimit } from './rate-limit';

test('when the draft-7 RateLimit header and Retry-After are present, then both are read', () => {
  const headers = new Headers({ ratelimit: 'limit=100, remaining=0, reset=42', 'retry-after': '42' });
  expect(readRateLimit(headers)).toEqual({ limit: 100, remaining: 0, resetSeconds: 42, retryAfterSeconds: 42 });
});

test('when the draft-6 RateLimit-* headers and an HTTP-date Retry-After are present, then they are read', () => {
  const now = Date.parse('2026-11-25T10:00:00.000Z');
  const headers = new Headers({
    'ratelimit-limit': '10',
    'ratelimit-remaining': '3',
    'ratelimit-reset': '7',
    'retry-after': 'Wed, 25 Nov 2026 10:00:30 GMT',
  });
  expect(readRateLimit(headers, now)).toEqual({ limit: 10, remaining: 3, resetSeconds: 7, retryAfterSeconds: 30 });
});

test('when there are no rate-limit headers, then nothing is made up', () => {
  expect(readRateLimit(new Headers({ 'retry-after': 'soon' }))).toEqual({});
});
