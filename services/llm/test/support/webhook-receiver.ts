import { sendJson, startHttpStub, type HttpStub } from '@platform/testkit';

/** A customer's webhook endpoint: answers `failures` times with 500, then 200. */
export async function webhookReceiver(failures = 0): Promise<HttpStub> {
  let remaining = failures;
  return startHttpStub((_req, res) => {
    if (remaining > 0) {
      remaining--;
      sendJson(res, 500, { error: 'not now' });
      return;
    }
    sendJson(res, 200, { received: true });
  });
}
