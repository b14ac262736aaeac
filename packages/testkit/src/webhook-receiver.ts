import { verifyWebhookSignature } from '@platform/webhooks';
import { sendJson, startHttpStub, type HttpStub } from './http-stub';

/**
 * A customer's webhook endpoint: checks X-Webhook-Signature with the project's secret the way a
 * receiver would (400 when it does not verify), answers `failures` times with 500, then 200.
 */
export async function webhookReceiver(secret: string, failures = 0): Promise<HttpStub> {
  let remaining = failures;
  return startHttpStub((req, res) => {
    if (!verifyWebhookSignature(secret, req.rawBody, String(req.headers['x-webhook-signature'] ?? ''))) {
      sendJson(res, 400, { error: 'bad signature' });
      return;
    }
    if (remaining > 0) {
      remaining--;
      sendJson(res, 500, { error: 'not now' });
      return;
    }
    sendJson(res, 200, { received: true });
  });
}
