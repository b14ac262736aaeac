import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { SecretBox } from '@platform/directory';
import { receiveWebhook } from './webhooks.service';

/** No keys: the vendor's signature, checked by the service, is the credential. */
export function webhookHandlers(db: Knex, secrets: SecretBox, toleranceSeconds: number) {
  // The route reads the body as bytes (`boundedRawBody`); the service parses it once the signature allows.
  const receive: RequestHandler<{ providerId: string }> = async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const request = { headers: req.headers, rawBody };
    res.json(await receiveWebhook(db, secrets, toleranceSeconds, req.params.providerId, request));
  };
  return { receive };
}
