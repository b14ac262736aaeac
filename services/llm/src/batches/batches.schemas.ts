import { Joi, pageSchema } from '@platform/tenancy';
import { generationOptions, messagesSchema, modelSchema } from '../completions/completions.schemas';
import { BATCH_STATUSES, type BatchRequestInput, type ListBatchesQuery } from './batches.model';

export interface SubmitBatchInput {
  requests: BatchRequestInput[];
  webhook_url?: string;
}

export function submitBatchSchema(maxRequests: number) {
  return Joi.object<SubmitBatchInput>({
    requests: Joi.array()
      .items(
        Joi.object({
          custom_id: Joi.string().min(1).max(256).required(),
          model: modelSchema,
          messages: messagesSchema,
          ...generationOptions,
        }).required(),
      )
      .min(1)
      .max(maxRequests)
      .unique('custom_id')
      .required()
      .messages({ 'array.unique': 'custom_id "{#value.custom_id}" appears more than once' }),
    webhook_url: Joi.string()
      .trim()
      .max(2048)
      .uri({ scheme: ['http', 'https'] }),
  });
}

export const listBatchesSchema = Joi.object<ListBatchesQuery>({
  status: Joi.string().valid(...BATCH_STATUSES),
  ...pageSchema(20),
});

export const batchIdSchema = Joi.object<{ batch_id: string }>({ batch_id: Joi.string().required() });
