import { Joi } from '@platform/tenancy';
import type { ChatMessage } from '../vendors/vendor-types';

export const MESSAGE_ROLES = ['system', 'developer', 'user', 'assistant'];

export const messageSchema = Joi.object<ChatMessage>({
  role: Joi.string()
    .valid(...MESSAGE_ROLES)
    .required()
    .description("for claude-* models, system messages go to Anthropic's `system` field"),
  content: Joi.string().allow('').max(200_000).required(),
}).id('Message');

export const messagesSchema = Joi.array().items(messageSchema.required()).min(1).max(500).required();

/** Options shared by a completion and a batch item. */
export const generationOptions = {
  max_tokens: Joi.number().integer().min(1).max(1_000_000).description('anthropic default 1024 when omitted'),
  temperature: Joi.number().min(0).max(2),
};

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
}

export const modelSchema = Joi.string().trim().min(1).max(200).required();

export const completionSchema = Joi.object<CompletionRequest>({
  model: modelSchema.description(
    'gpt-*, o1*, o3*, o4*, chatgpt-* route to openai; claude-* to anthropic; anything else is 400',
  ),
  messages: messagesSchema,
  ...generationOptions,
}).id('CompletionRequest');
