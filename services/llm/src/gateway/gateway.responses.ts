import { Joi } from '@platform/tenancy';
import type { ChatCompletion } from '../vendors/chat-types';
import type { listModels } from './models.service';

/** OpenAI's error shape; `success: false` keeps it our common envelope too (see openai-errors.ts). */
export const openAiErrorResponse = Joi.object({
  success: Joi.valid(false).required(),
  error: Joi.object({
    message: Joi.string().allow('').required(),
    type: Joi.string().required(),
    code: Joi.string()
      .required()
      .description('ours: VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED, BUDGET_EXCEEDED, VENDOR_ERROR, ...'),
    param: Joi.string().allow(null).required(),
    details: Joi.array().items(Joi.object({ path: Joi.string().required(), message: Joi.string().required() })),
  }).required(),
})
  .description("OpenAI's error shape ({error: {message, type, code, param}}), also our common envelope")
  .id('OpenAiError');

// Open objects: a completion passed on from OpenAI keeps the fields OpenAI adds.
export const chatCompletionResponse = Joi.object<ChatCompletion>({
  id: Joi.string().required(),
  object: Joi.valid('chat.completion').required(),
  created: Joi.number().integer().required(),
  model: Joi.string().required(),
  choices: Joi.array()
    .items(
      Joi.object({
        index: Joi.number().integer().required(),
        message: Joi.object({ role: Joi.string().required() }).unknown().required(),
        finish_reason: Joi.string().allow(null).required(),
      }).unknown(),
    )
    .required(),
  usage: Joi.object().unknown(),
})
  .unknown()
  .id('ChatCompletion');

const modelObject = Joi.object({
  id: Joi.string().required(),
  object: Joi.valid('model').required(),
  created: Joi.number().integer().required(),
  owned_by: Joi.string().valid('openai', 'anthropic').required(),
});

/** OpenAI's model object (GET /models/{model}). */
export const modelResponse = modelObject.id('Model');

export const modelListResponse = Joi.object<Awaited<ReturnType<typeof listModels>>>({
  object: Joi.valid('list').required(),
  data: Joi.array().items(modelObject).required(),
}).id('ModelList');
