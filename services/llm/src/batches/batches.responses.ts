import { Joi } from '@platform/tenancy';
import { usageResponse } from '../completions/completions.responses';
import type { BatchResults, BatchSummary, CancelledBatch, SubmittedBatch } from './batches.mapper';
import { BATCH_STATUSES } from './batches.model';

const dateTime = () => Joi.string().meta({ format: 'date-time' });
const count = () => Joi.number().integer().min(0).required();
const status = () =>
  Joi.string()
    .valid(...BATCH_STATUSES)
    .required();

export const batchCreatedResponse = Joi.object<SubmittedBatch>({
  batchId: Joi.string().required(),
  status: status(),
  requestCount: count(),
  createdAt: dateTime().required(),
}).id('BatchCreated');

export const batchResponse = Joi.object<BatchSummary>({
  batchId: Joi.string().required(),
  status: status(),
  requestCount: count(),
  completedCount: count().description('items that succeeded'),
  failedCount: count().description('items whose vendor call failed'),
  createdAt: dateTime().required(),
  completedAt: dateTime().allow(null).required().description('when the batch reached completed or failed'),
}).id('Batch');

export const batchListResponse = Joi.object({
  batches: Joi.array().items(batchResponse).required(),
  total: count(),
  limit: count(),
  offset: count(),
}).id('BatchList');

export const batchResultsResponse = Joi.object<BatchResults>({
  batchId: Joi.string().required(),
  status: Joi.valid('completed').required(),
  results: Joi.array()
    .items(
      Joi.object({
        custom_id: Joi.string().required(),
        status: Joi.string().valid('succeeded', 'failed').required(),
        completion: Joi.string().allow('', null).required(),
        model: Joi.string().required(),
        usage: usageResponse.required(),
        error: Joi.string().description("the vendor's message, for a failed item"),
      }),
    )
    .required(),
}).id('BatchResults');

export const batchCancelledResponse = Joi.object<CancelledBatch>({
  batchId: Joi.string().required(),
  status: Joi.valid('cancelled').required(),
  message: Joi.string().required(),
}).id('BatchCancelled');
