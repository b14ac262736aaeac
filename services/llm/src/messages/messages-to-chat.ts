import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ChatBody } from '../gateway/chat-request.schema';
import type { ChatMessageParam } from '../vendors/chat-types';
import type { MessagesBody } from './messages-request.schema';

type Block = Anthropic.ContentBlockParam;
type Part = OpenAI.Chat.ChatCompletionContentPart;

const blocksOf = (content: string | Block[]): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

function textOf(content: string | readonly { type: string; text?: string }[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');
}

function partOf(block: Block): Part | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') {
    const source = block.source;
    if (source.type === 'base64')
      return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
    if (source.type === 'url') return { type: 'image_url', image_url: { url: source.url } };
  }
  return undefined;
}

/** A user turn: its tool results first (OpenAI wants them right after the assistant's calls), then the rest. */
function userMessages(content: string | Block[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  const parts: Part[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === 'tool_result') {
      const result = textOf(block.content as string | { type: string; text?: string }[] | undefined);
      out.push({
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content: block.is_error ? `Error: ${result}` : result,
      });
    } else {
      const part = partOf(block);
      if (part) parts.push(part);
    }
  }
  if (parts.length) {
    const onlyText = parts.every((part) => part.type === 'text');
    out.push({
      role: 'user',
      content: onlyText
        ? parts.map((part) => (part as OpenAI.Chat.ChatCompletionContentPartText).text).join('')
        : parts,
    });
  }
  return out;
}

function assistantMessage(content: string | Block[]): ChatMessageParam {
  const blocks = blocksOf(content);
  const text = textOf(blocks as { type: string; text?: string }[]);
  const calls = blocks
    .filter((block): block is Anthropic.ToolUseBlockParam => block.type === 'tool_use')
    .map((block) => ({
      id: block.id,
      type: 'function' as const,
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
    }));
  return {
    role: 'assistant',
    content: text || (calls.length ? null : ''),
    ...(calls.length ? { tool_calls: calls } : {}),
  };
}

function toolChoiceOf(
  choice: Anthropic.ToolChoice | undefined,
): OpenAI.Chat.ChatCompletionToolChoiceOption | undefined {
  switch (choice?.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return undefined;
  }
}

/** Anthropic's Messages request as OpenAI's Chat Completions request, for an OpenAI model (and for admission). */
export function toChatBody(body: MessagesBody): ChatBody {
  const system = body.system === undefined ? '' : textOf(body.system);
  const messages: ChatMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of body.messages) {
    if (message.role === 'user') messages.push(...userMessages(message.content));
    else messages.push(assistantMessage(message.content));
  }
  const tools = (body.tools ?? [])
    .filter((tool): tool is Anthropic.Tool => 'input_schema' in tool)
    .map((tool) => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema as Record<string, unknown>,
      },
    }));
  const toolChoice = tools.length ? toolChoiceOf(body.tool_choice) : undefined;
  return {
    model: body.model,
    messages,
    max_completion_tokens: body.max_tokens,
    ...(body.temperature != null ? { temperature: body.temperature } : {}),
    ...(body.top_p != null ? { top_p: body.top_p } : {}),
    ...(body.stop_sequences?.length ? { stop: body.stop_sequences.slice(0, 4) } : {}),
    ...(tools.length ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(body.metadata?.user_id ? { user: body.metadata.user_id } : {}),
    ...(body.stream ? { stream: true } : {}),
    ...(body.fallbacks ? { fallbacks: body.fallbacks } : {}),
  };
}
