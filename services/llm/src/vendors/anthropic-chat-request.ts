import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ChatMessageParam, ChatRequest } from './chat-types';
import { structuredFormatOf, withStructuredOutput } from './structured-output';

type Block = Anthropic.ContentBlockParam;
type Part = OpenAI.Chat.ChatCompletionContentPart | OpenAI.Chat.ChatCompletionContentPartRefusal;

function textOf(content: string | Part[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function imageOf(url: string): Block {
  const data = /^data:(image\/(?:png|jpeg|gif|webp));base64,(.*)$/s.exec(url);
  return data
    ? { type: 'image', source: { type: 'base64', media_type: data[1] as 'image/png', data: data[2] } }
    : { type: 'image', source: { type: 'url', url } };
}

function blocksOf(content: string | Part[] | null | undefined): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const part of content ?? []) {
    if (part.type === 'text' && part.text) blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'image_url') blocks.push(imageOf(part.image_url.url));
  }
  return blocks;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toBlocks(message: ChatMessageParam): { role: 'user' | 'assistant'; blocks: Block[] } | undefined {
  switch (message.role) {
    case 'user':
      return { role: 'user', blocks: blocksOf(message.content) };
    case 'assistant': {
      const blocks = blocksOf(message.content as string | Part[] | null);
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
        });
      }
      return { role: 'assistant', blocks };
    }
    case 'tool':
      return {
        role: 'user',
        blocks: [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content) }],
      };
    default:
      return undefined;
  }
}

/** OpenAI messages as Anthropic takes them: system apart, tool results as user turns, same-role turns merged. */
function toMessages(messages: ChatMessageParam[]): { system?: string; messages: Anthropic.MessageParam[] } {
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content as string | Part[]))
    .filter(Boolean);
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const message of messages) {
    const turn = toBlocks(message);
    if (!turn || !turn.blocks.length) continue;
    const previous = out.at(-1);
    if (previous?.role === turn.role) previous.content.push(...turn.blocks);
    else out.push({ role: turn.role, content: turn.blocks });
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: out };
}

function toToolChoice(choice: ChatRequest['tool_choice']): Anthropic.ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  if (choice.type === 'function') return { type: 'tool', name: choice.function.name };
  return undefined;
}

/** An OpenAI Chat Completions request as an Anthropic Messages request; `response_format` as a forced answer tool. */
export function toAnthropicRequest(request: ChatRequest, defaultMaxTokens: number): Anthropic.MessageCreateParams {
  const format = structuredFormatOf(request.response_format);
  const translated = toPlainAnthropicRequest(request, defaultMaxTokens);
  return format ? withStructuredOutput(translated, format) : translated;
}

function toPlainAnthropicRequest(request: ChatRequest, defaultMaxTokens: number): Anthropic.MessageCreateParams {
  const { system, messages } = toMessages(request.messages);
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? undefined);
  const tools = request.tools
    ?.filter((tool) => tool.type === 'function')
    .map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      input_schema: (tool.function.parameters ?? { type: 'object' }) as Anthropic.Tool.InputSchema,
    }));
  const toolChoice = toToolChoice(request.tool_choice);
  return {
    model: request.model,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? defaultMaxTokens,
    messages,
    ...(system ? { system } : {}),
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { top_p: request.top_p } : {}),
    ...(stop?.length ? { stop_sequences: stop } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(toolChoice && tools?.length ? { tool_choice: toolChoice } : {}),
    ...(request.user ? { metadata: { user_id: request.user } } : {}),
  };
}
