import { attemptSignedDelivery, nextAttemptAt, parseRetryDelays } from './delivery-attempt';

describe('retry policy', () => {
  it('when attempts remain, then the next one is due after the delay for this attempt', () => {
    const delays = parseRetryDelays('1000,5000');
    expect(nextAttemptAt(delays, 1, 0)).toEqual(new Date(1000));
    expect(nextAttemptAt(delays, 2, 0)).toEqual(new Date(5000));
    expect(nextAttemptAt(delays, 3, 0)).toBeNull();
  });
});

describe('attemptSignedDelivery', () => {
  const options = { timeoutMs: 1_000, deadlineMs: 1_000, maxResponseBytes: 1_024, allowedHosts: [] };

  it('when the project has no webhook secret, then the delivery is refused without a request', async () => {
    const result = await attemptSignedDelivery(
      { url: 'https://example.com/', body: '{}', webhookId: 'w', attempt: 1, secret: null, userAgent: 'x' },
      options,
    );
    expect(result).toMatchObject({ outcome: 'refused', statusCode: null });
  });

  it('when the URL is a private address, then the delivery is refused, not failed (no retry)', async () => {
    const result = await attemptSignedDelivery(
      { url: 'http://169.254.169.254/', body: '{}', webhookId: 'w', attempt: 1, secret: 's', userAgent: 'x' },
      options,
    );
    expect(result).toMatchObject({ outcome: 'refused', error: expect.stringContaining('target not allowed') });
  });
});
