import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import {
  idempotencyKeySchema,
  listLogsSchema,
  recipientPageSchema,
  recipientSchema,
  sendEmailSchema,
} from './emails.schemas';
import type { EmailsService } from './emails.service';
import type { LogsService } from './logs.service';

/** Thin handlers for sending, logs and stats; routes.ts mounts them behind the keys. */
export function emailHandlers(emails: EmailsService, logs: LogsService, maxRecipients: number) {
  const sendSchema = sendEmailSchema(maxRecipients);
  const send: RequestHandler = async (req, res) => {
    const input = parse(sendSchema, req.body);
    const key = req.get('idempotency-key');
    if (key === undefined) {
      res.json(await emails.send(tenantOf(req), input));
      return;
    }
    const { response, replayed } = await emails.sendOnce(tenantOf(req), parse(idempotencyKeySchema, key), input);
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.json(response);
  };
  const listLogs: RequestHandler = async (req, res) => {
    res.json(await logs.list(tenantOf(req), parse(listLogsSchema, req.query)));
  };
  const recipientLogs: RequestHandler<{ recipient: string }> = async (req, res) => {
    const { recipient } = parse(recipientSchema, { recipient: req.params.recipient });
    res.json(await logs.forRecipient(tenantOf(req), recipient, parse(recipientPageSchema, req.query)));
  };
  const stats: RequestHandler = async (req, res) => {
    res.json(await logs.stats(tenantOf(req)));
  };
  return { send, listLogs, recipientLogs, stats };
}
