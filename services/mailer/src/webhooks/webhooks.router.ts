import type { RequestHandler } from 'express';
import type { WebhooksService } from './webhooks.service';

/** No keys: the vendor's signature, checked by the service, is the credential. */
export function webhookHandlers(webhooks: WebhooksService) {
  const receive: RequestHandler<{ providerId: string }> = async (req, res) => {
    const rawBody = (req as unknown as { rawBody?: Buffer }).rawBody;
    res.json(await webhooks.receive(req.params.providerId, { headers: req.headers, body: req.body, rawBody }));
  };
  return { receive };
}
