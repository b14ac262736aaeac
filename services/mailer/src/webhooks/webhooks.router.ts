import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { SecretBox } from '@platform/tenancy';
import { receiveWebhook } from './webhooks.service';

/** No keys: the vendor's signature, checked by the service, is the credential. */
export function webhookHandlers(db: Knex, secrets: SecretBox, toleranceSeconds: number) {
  const receive: RequestHandler<{ providerId: string }> = async (req, res) => {
    const rawBody = (req as unknown as { rawBody?: Buffer }).rawBody;
    const request = { headers: req.headers, body: req.body, rawBody };
    res.json(await receiveWebhook(db, secrets, toleranceSeconds, req.params.providerId, request));
  };
  return { receive };
}
