import { Joi } from '@platform/tenancy';

// Open objects: a Response passed on from OpenAI keeps the fields OpenAI adds.
const outputItem = Joi.object({ type: Joi.string().required(), id: Joi.string() }).unknown();

/** OpenAI's Response object (what /responses answers whole, and what response.completed carries). */
export const responseObjectResponse = Joi.object({
  id: Joi.string().required(),
  object: Joi.valid('response').required(),
  created_at: Joi.number().required(),
  status: Joi.string().required().description('completed, incomplete or failed'),
  model: Joi.string().required(),
  output: Joi.array().items(outputItem).required().description('message and function_call items'),
  usage: Joi.object({
    input_tokens: Joi.number().integer().required(),
    output_tokens: Joi.number().integer().required(),
    total_tokens: Joi.number().integer().required(),
  })
    .unknown()
    .allow(null),
})
  .unknown()
  .id('Response');
