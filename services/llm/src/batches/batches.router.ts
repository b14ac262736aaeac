import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { batchIdSchema, listBatchesSchema, submitBatchSchema } from './batches.schemas';
import { cancel, getBatch, getBatchResults, getBatches, submitBatch } from './batches.service';

type Handlers = Record<'submit' | 'list' | 'get' | 'results' | 'cancel', RequestHandler>;

export function batchHandlers(deps: ServiceDeps, runtime: LlmShared): Handlers {
  const submitSchema = submitBatchSchema(runtime.config.batchMaxRequests);
  const idOf = (params: unknown) => parse(batchIdSchema, params).batch_id;
  return {
    submit: async (req, res) => {
      res.status(201).json(await submitBatch(deps, runtime, tenantOf(req), parse(submitSchema, req.body)));
    },
    list: async (req, res) => {
      res.json(await getBatches(deps, tenantOf(req), parse(listBatchesSchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await getBatch(deps, tenantOf(req), idOf(req.params)));
    },
    results: async (req, res) => {
      res.json(await getBatchResults(deps, tenantOf(req), idOf(req.params)));
    },
    cancel: async (req, res) => {
      res.json(await cancel(deps, tenantOf(req), idOf(req.params)));
    },
  };
}
