import { Joi, pageSchema, webUrl } from '@platform/tenancy';
import { generationOptions, messagesSchema, modelSchema } from '../completions/completions.schemas';
import { BATCH_STATUSES, type BatchRequestInput, type ListBatchesQuery } from './batches.model';

export interface SubmitBatchInput {
  requests: BatchRequestInput[];
  webhook_url?: string;
}

const WEBHOOK_DESCRIPTION =
  'http(s) URL called once the batch is completed or failed: POST {event: "batch.completed", batchId, status, requestCount, completedCount, failedCount, completedAt}, ' +
  'signed `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the project\'s webhookSecret, `X-Webhook-Id` stable across retries, ' +
  'and with the Standard Webhooks headers `webhook-id` (the same id), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the secret\'s base64 bytes; ' +
  'retried with exponential backoff (6 attempts over an hour); addresses resolving to private, loopback or link-local ranges are refused unless allow-listed';

export function submitBatchSchema(maxRequests: number) {
  return Joi.object<SubmitBatchInput>({
    requests: Joi.array()
      .items(
        Joi.object({
          custom_id: Joi.string().min(1).max(256).required().description('unique within the batch'),
          model: modelSchema,
          messages: messagesSchema,
          ...generationOptions,
        })
          .id('BatchRequestItem')
          .required(),
      )
      .min(1)
      .max(maxRequests)
      .unique('custom_id')
      .required()
      .description(`at most LLM_BATCH_MAX_REQUESTS (default ${maxRequests.toLocaleString('en')})`)
      .messages({ 'array.unique': 'custom_id "{#value.custom_id}" appears more than once' }),
    webhook_url: webUrl().description(WEBHOOK_DESCRIPTION),
  }).id('BatchSubmit');
}

export const listBatchesSchema = Joi.object<ListBatchesQuery>({
  status: Joi.string().valid(...BATCH_STATUSES),
  ...pageSchema(20),
});

export const batchIdSchema = Joi.object<{ batch_id: string }>({
  batch_id: Joi.string().required().description('the batchId returned at submit'),
});
