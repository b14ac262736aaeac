import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { SecretBox } from '@platform/directory';
import { checkUnsubscribeToken, unsubscribe } from './unsubscribe.service';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** No keys: the signed token is the credential. */
export function unsubscribeHandlers(
  db: Knex,
  box: SecretBox,
): Record<'page' | 'oneClick', RequestHandler<{ token: string }>> {
  return {
    // A GET never unsubscribes (mail scanners follow links); it shows a button that POSTs.
    page: async (req, res) => {
      const { email } = await checkUnsubscribeToken(db, box, req.params.token);
      res
        .type('html')
        .send(
          '<!doctype html><meta charset="utf-8"><title>Unsubscribe</title>' +
            `<form method="post"><p>Stop marketing email to ${escapeHtml(email)}?</p>` +
            '<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>',
        );
    },
    // RFC 8058: the body is `List-Unsubscribe=One-Click`; the token alone decides, so the body is not read.
    oneClick: async (req, res) => {
      res.json(await unsubscribe(db, box, req.params.token));
    },
  };
}
