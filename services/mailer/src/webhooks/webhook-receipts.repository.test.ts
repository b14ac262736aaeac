import { randomUUID } from 'node:crypto';
import { pruneExpiredReceipts, recordReceipts } from './webhook-receipts.repository';
import { useMailerService } from '../../test/support/mailer-test-service';

const ctx = useMailerService();
const tenant = { tenantId: randomUUID(), projectId: randomUUID() };
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('webhook receipts', () => {
  it('when an id is recorded, then recording it again within its window reports it as seen', async () => {
    const provider = randomUUID();
    const window = { expiresAt: minutes(5), now: new Date() };
    expect(await recordReceipts(ctx.svc.deps.db, tenant, provider, ['a', 'b', 'a'], window)).toEqual(
      new Set(['a', 'b']),
    );
    expect(await recordReceipts(ctx.svc.deps.db, tenant, provider, ['a', 'c'], window)).toEqual(new Set(['c']));
  });

  it('when a recorded id has expired, then it counts as new again, even before pruning', async () => {
    const provider = randomUUID();
    await recordReceipts(ctx.svc.deps.db, tenant, provider, ['old'], { expiresAt: minutes(-1), now: minutes(-6) });
    const again = await recordReceipts(ctx.svc.deps.db, tenant, provider, ['old'], {
      expiresAt: minutes(5),
      now: new Date(),
    });
    expect(again).toEqual(new Set(['old']));
  });

  it("when pruning, then only this provider's expired ids are deleted", async () => {
    const provider = randomUUID();
    const other = randomUUID();
    const expired = { expiresAt: minutes(-1), now: minutes(-6) };
    await recordReceipts(ctx.svc.deps.db, tenant, provider, ['gone'], expired);
    await recordReceipts(ctx.svc.deps.db, tenant, other, ['gone'], expired);
    await recordReceipts(ctx.svc.deps.db, tenant, provider, ['kept'], { expiresAt: minutes(5), now: new Date() });

    expect(await pruneExpiredReceipts(ctx.svc.deps.db, tenant, provider, new Date())).toBe(1);
    const left = await ctx.svc.deps
      .db('mail_webhook_receipts')
      .whereIn('provider_id', [provider, other])
      .orderBy('provider_id')
      .select('provider_id as providerId', 'receipt_id as receiptId');
    expect(left).toEqual(
      expect.arrayContaining([
        { providerId: provider, receiptId: 'kept' },
        { providerId: other, receiptId: 'gone' },
      ]),
    );
    expect(left).toHaveLength(2);
  });
});
