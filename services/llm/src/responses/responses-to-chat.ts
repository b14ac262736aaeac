import { errors } from '@platform/tenancy';
import type OpenAI from 'openai';
import type { ChatBody } from '../gateway/chat-request.schema';
import type { ChatMessageParam } from '../vendors/chat-types';
import type { ResponsesBody, ResponsesInputItem } from './responses-request.schema';

type ToolCall = OpenAI.Chat.ChatCompletionMessageFunctionToolCall;

function textOf(content: ResponsesInputItem['content'] | ResponsesInputItem['output']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

function userContent(content: ResponsesInputItem['content']): OpenAI.Chat.ChatCompletionUserMessageParam['content'] {
  if (typeof content === 'string') return content;
  const parts: OpenAI.Chat.ChatCompletionContentPart[] = [];
  for (const part of content ?? []) {
    if (part.type === 'input_image' && part.image_url)
      parts.push({ type: 'image_url', image_url: { url: part.image_url } });
    else if (part.text) parts.push({ type: 'text', text: part.text });
  }
  return parts;
}

/**
 * The Responses input as Chat Completions messages: instructions first as a system message,
 * function calls as an assistant's tool calls (consecutive ones in one message), their outputs as
 * tool messages. Items only OpenAI can resolve (`item_reference`, reasoning) are left out.
 */
export function toChatMessages(body: ResponsesBody): ChatMessageParam[] {
  const messages: ChatMessageParam[] = [];
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
    return messages;
  }
  for (const item of body.input) {
    const type = item.type ?? 'message';
    if (type === 'item_reference' || type === 'reasoning') continue;
    if (type === 'function_call') {
      const call: ToolCall = {
        id: item.call_id!,
        type: 'function',
        function: { name: item.name!, arguments: item.arguments! },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      continue;
    }
    if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id!, content: textOf(item.output) });
      continue;
    }
    if (item.role === 'assistant') messages.push({ role: 'assistant', content: textOf(item.content) });
    else if (item.role === 'user') messages.push({ role: 'user', content: userContent(item.content) });
    else messages.push({ role: item.role as 'system' | 'developer', content: textOf(item.content) });
  }
  return messages;
}

/** Where the request leans on a response OpenAI stored (`previous_response_id`, an `item_reference`); null when it does not. */
export function storedStateIn(body: ResponsesBody): string | null {
  if (body.previous_response_id) return 'previous_response_id';
  if (typeof body.input === 'string') return null;
  const i = body.input.findIndex((item) => item.type === 'item_reference');
  return i === -1 ? null : `input.${i}`;
}

/**
 * A claude model cannot continue a response OpenAI stored: the gateway keeps none (store: false
 * semantics), so the conversation must come whole as input items.
 */
export function storedStateRefused(path: string) {
  return errors.validation(
    'This gateway keeps no responses (store: false): a claude model needs the whole conversation',
    [
      {
        path,
        message:
          'this gateway keeps no responses (store: false): a claude model needs the whole conversation as input items (with the AI SDK: providerOptions.openai.store = false)',
      },
    ],
  );
}

function responseFormat(body: ResponsesBody): ChatBody['response_format'] {
  const format = body.text?.format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name!,
      schema: format.schema,
      ...(format.description ? { description: format.description } : {}),
      ...(format.strict != null ? { strict: format.strict } : {}),
    },
  };
}

/**
 * The Chat Completions request a Responses request amounts to: what is admitted under the
 * project's limits (its messages bound the cost) and what a claude model is asked through the
 * chat translation. The gpt models get the Responses request itself.
 */
export function toChatBody(body: ResponsesBody): ChatBody {
  const toolChoice = body.tool_choice;
  const format = responseFormat(body);
  return {
    model: body.model,
    messages: toChatMessages(body),
    ...(body.max_output_tokens != null ? { max_tokens: body.max_output_tokens } : {}),
    ...(body.temperature != null ? { temperature: body.temperature } : {}),
    ...(body.top_p != null ? { top_p: body.top_p } : {}),
    ...(body.tools?.length
      ? {
          tools: body.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              ...(tool.parameters ? { parameters: tool.parameters } : {}),
              ...(tool.strict != null ? { strict: tool.strict } : {}),
            },
          })),
        }
      : {}),
    ...(toolChoice === undefined
      ? {}
      : {
          tool_choice:
            typeof toolChoice === 'string' ? toolChoice : { type: 'function', function: { name: toolChoice.name } },
        }),
    ...(body.parallel_tool_calls != null ? { parallel_tool_calls: body.parallel_tool_calls } : {}),
    ...(format ? { response_format: format } : {}),
    ...(body.user ? { user: body.user } : {}),
    ...(body.stream ? { stream: true } : {}),
    ...(body.fallbacks ? { fallbacks: body.fallbacks } : {}),
  };
}
