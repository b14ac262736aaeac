import type { RequestHandler } from 'express';
import { errors } from '@platform/tenancy';
import type { ReservedProject } from '../accounts/reserved-project';

/**
 * The dev inbox (outside production only): the console's own e-mails (verification, reset,
 * invitations) that the Mailer kept in its outbox because no provider is configured. They are
 * the Mailer's log of the console's reserved project, read with that project's keys; a
 * project's own e-mails are in its Mailer logs. The answer is the Mailer's `GET /logs`.
 */
export function devInbox(reserved: ReservedProject, mailerUrl: string): RequestHandler {
  return async (req, res) => {
    const keys = await reserved.ensure();
    const query = new URLSearchParams();
    for (const name of ['limit', 'offset']) {
      const value = req.query[name];
      if (typeof value === 'string') query.set(name, value);
    }
    let answer: Response;
    try {
      answer = await fetch(`${mailerUrl}/logs?${query}`, {
        headers: {
          'x-api-key': keys.apiKey,
          'x-secret-key': keys.secretKey,
          'x-tenant-id': keys.tenantId,
          'x-project-id': keys.projectId,
        },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw errors.vendorUnreachable('The Mailer cannot be reached', error);
    }
    res
      .status(answer.status)
      .type('application/json')
      .send(await answer.text());
  };
}
