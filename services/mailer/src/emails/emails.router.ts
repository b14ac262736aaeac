import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import {
  dailyStatsSchema,
  idempotencyKeySchema,
  listLogsSchema,
  recipientPageSchema,
  recipientSchema,
  sendEmailSchema,
} from './emails.schemas';
import { sendEmail, sendEmailOnce, type SendingDeps } from './emails.service';
import { dailyStats, listLogs, logStats, recipientLogs } from './logs.service';

/** Thin handlers for sending, logs and stats; routes.ts mounts them behind the keys. */
export function emailHandlers(db: Knex, sending: SendingDeps, maxRecipients: number) {
  const sendSchema = sendEmailSchema(maxRecipients);
  const send: RequestHandler = async (req, res) => {
    const input = parse(sendSchema, req.body);
    const key = req.get('idempotency-key');
    if (key === undefined) {
      res.json(await sendEmail(db, sending, tenantOf(req), input));
      return;
    }
    const { response, replayed } = await sendEmailOnce(
      db,
      sending,
      tenantOf(req),
      parse(idempotencyKeySchema, key),
      input,
    );
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.json(response);
  };
  const listLogsHandler: RequestHandler = async (req, res) => {
    res.json(await listLogs(db, tenantOf(req), parse(listLogsSchema, req.query)));
  };
  const recipientLogsHandler: RequestHandler<{ recipient: string }> = async (req, res) => {
    const { recipient } = parse(recipientSchema, { recipient: req.params.recipient });
    res.json(await recipientLogs(db, tenantOf(req), recipient, parse(recipientPageSchema, req.query)));
  };
  const stats: RequestHandler = async (req, res) => {
    res.json(await logStats(db, tenantOf(req)));
  };
  const daily: RequestHandler = async (req, res) => {
    res.json(await dailyStats(db, tenantOf(req), parse(dailyStatsSchema, req.query)));
  };
  return { send, listLogs: listLogsHandler, recipientLogs: recipientLogsHandler, stats, dailyStats: daily };
}
