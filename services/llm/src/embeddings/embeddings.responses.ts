import { Joi } from '@platform/tenancy';

/** OpenAI's embeddings answer: one vector per input, floats or base64 of little-endian float32. */
export const embeddingsResponse = Joi.object({
  object: Joi.valid('list').required(),
  data: Joi.array()
    .items(
      Joi.object({
        object: Joi.valid('embedding').required(),
        index: Joi.number().integer().required(),
        embedding: Joi.alternatives(Joi.array().items(Joi.number()), Joi.string()).required(),
      }),
    )
    .required(),
  model: Joi.string().required(),
  usage: Joi.object({
    prompt_tokens: Joi.number().integer().required(),
    total_tokens: Joi.number().integer().required(),
  }).required(),
})
  .unknown()
  .id('Embeddings');
