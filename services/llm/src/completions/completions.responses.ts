import { Joi } from '@platform/tenancy';
import type { Usage } from '../vendors/vendor-types';
import type { Completion } from './completions.mapper';

const count = () => Joi.number().integer().min(0).required();

export const usageResponse = Joi.object<Usage>({
  prompt_tokens: count(),
  completion_tokens: count(),
  total_tokens: count(),
})
  .description(
    'OpenAI naming for both vendors (Anthropic input_tokens + cached input tokens -> prompt_tokens, output_tokens -> completion_tokens)',
  )
  .id('Usage');

export const completionResponse = Joi.object<Completion>({
  id: Joi.string().required().description('also the id of its completion log record'),
  completion: Joi.string().allow('').required(),
  model: Joi.string().required().description('the model the vendor reports'),
  provider: Joi.string().valid('openai', 'anthropic').required(),
  usage: usageResponse.required(),
  createdAt: Joi.string().meta({ format: 'date-time' }).required(),
}).id('Completion');
