import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { OutboxRelay } from '@platform/events';
import { parse, tenantOf } from '@platform/tenancy';
import { batchIdSchema, listBatchesSchema, submitBatchSchema } from './batches.schemas';
import { cancel, getBatch, getBatchResults, getBatches, submitBatch } from './batches.service';

type Handlers = Record<'submit' | 'list' | 'get' | 'results' | 'cancel', RequestHandler>;

/** `maxRequests` bounds a batch; `limitsOn` refuses a batch at once when its project's budget is spent. */
export function batchHandlers(
  db: Knex,
  relay: OutboxRelay,
  options: { maxRequests: number; limitsOn: boolean },
): Handlers {
  const submitSchema = submitBatchSchema(options.maxRequests);
  const idOf = (params: unknown) => parse(batchIdSchema, params).batch_id;
  return {
    submit: async (req, res) => {
      const input = parse(submitSchema, req.body);
      res.status(201).json(await submitBatch(db, relay, options.limitsOn, tenantOf(req), input));
    },
    list: async (req, res) => {
      res.json(await getBatches(db, tenantOf(req), parse(listBatchesSchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await getBatch(db, tenantOf(req), idOf(req.params)));
    },
    results: async (req, res) => {
      res.json(await getBatchResults(db, tenantOf(req), idOf(req.params)));
    },
    cancel: async (req, res) => {
      res.json(await cancel(db, tenantOf(req), idOf(req.params)));
    },
  };
}
