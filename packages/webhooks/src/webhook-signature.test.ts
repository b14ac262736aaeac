import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

describe('webhook signature', () => {
  it('when signed, then v1 is the hex HMAC-SHA256 of "t.body" with the secret', () => {
    const header = signWebhook('whsec_x', '{"a":1}', 1700000000);
    const expected = createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it('when the body, secret or age is wrong, then verification fails', () => {
    const header = signWebhook('whsec_x', 'body');
    expect(verifyWebhookSignature('whsec_x', 'body', header)).toBe(true);
    expect(verifyWebhookSignature('whsec_x', 'other', header)).toBe(false);
    expect(verifyWebhookSignature('whsec_y', 'body', header)).toBe(false);
    expect(verifyWebhookSignature('whsec_x', 'body', signWebhook('whsec_x', 'body', 1000))).toBe(false);
  });
});
