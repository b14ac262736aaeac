import type Anthropic from '@anthropic-ai/sdk';
import type { TokenCounts } from '../usage/price-table';
import type { ChatCompletion, ChatStream } from '../vendors/chat-types';
import { anthropicUsage, messagesEvent, type MessagesEvent, type MessagesEventStream } from './messages-events';

type StopReason = Anthropic.StopReason;

const STOP: Record<string, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

const stopOf = (finish: string | null | undefined): StopReason => STOP[finish ?? ''] ?? 'end_turn';

function inputOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An OpenAI answer as Anthropic's Message: text and tool_use blocks, the stop reason, usage. */
export function toAnthropicMessage(completion: ChatCompletion, tokens: TokenCounts): Anthropic.Message {
  const choice = completion.choices[0];
  const content: Anthropic.ContentBlock[] = [];
  if (choice?.message.content) content.push({ type: 'text', text: choice.message.content, citations: null });
  for (const call of choice?.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: inputOf(call.function.arguments) });
  }
  return {
    id: `msg_${completion.id}`,
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: stopOf(choice?.finish_reason),
    stop_sequence: null,
    usage: { ...anthropicUsage(tokens), server_tool_use: null, service_tier: null, cache_creation: null },
  } as Anthropic.Message;
}

/**
 * OpenAI's chunks as Anthropic's events: message_start once OpenAI's first chunk is in (so that
 * nothing is sent before the vendor answered), a text or tool_use block for each run of text or
 * each tool call, message_delta with the stop reason and usage once OpenAI's usage is in, message_stop.
 */
export function anthropicEventsOf(stream: ChatStream, model: string): MessagesEventStream {
  return {
    get tokens() {
      return stream.tokens;
    },
    get exact() {
      return stream.exact;
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<MessagesEvent> {
      const chunks = stream[Symbol.asyncIterator]();
      let next = await chunks.next();
      const first = next.done ? undefined : next.value;
      yield messagesEvent('message_start', {
        message: {
          id: `msg_${first?.id ?? ''}`,
          type: 'message',
          role: 'assistant',
          content: [],
          model: first?.model ?? model,
          stop_reason: null,
          stop_sequence: null,
          usage: { ...anthropicUsage(stream.tokens), output_tokens: 0 },
        },
      });
      yield messagesEvent('ping');
      let index = -1;
      let open: 'text' | 'tool' | undefined;
      const toolBlocks = new Map<number, number>();
      let finish: string | null = null;
      const close = function* () {
        if (open) yield messagesEvent('content_block_stop', { index });
        open = undefined;
      };
      for (; !next.done; next = await chunks.next()) {
        const choice = next.value.choices[0];
        if (!choice) continue;
        if (choice.delta?.content) {
          if (open !== 'text') {
            yield* close();
            open = 'text';
            yield messagesEvent('content_block_start', { index: ++index, content_block: { type: 'text', text: '' } });
          }
          yield messagesEvent('content_block_delta', {
            index,
            delta: { type: 'text_delta', text: choice.delta.content },
          });
        }
        for (const call of choice.delta?.tool_calls ?? []) {
          if (!toolBlocks.has(call.index)) {
            yield* close();
            open = 'tool';
            toolBlocks.set(call.index, ++index);
            yield messagesEvent('content_block_start', {
              index,
              content_block: {
                type: 'tool_use',
                id: call.id ?? `toolu_${index}`,
                name: call.function?.name ?? '',
                input: {},
              },
            });
          }
          const args = call.function?.arguments;
          if (args && toolBlocks.get(call.index) === index) {
            yield messagesEvent('content_block_delta', {
              index,
              delta: { type: 'input_json_delta', partial_json: args },
            });
          }
        }
        finish = choice.finish_reason ?? finish;
      }
      yield* close();
      yield messagesEvent('message_delta', {
        delta: { stop_reason: stopOf(finish), stop_sequence: null },
        usage: anthropicUsage(stream.tokens),
      });
      yield messagesEvent('message_stop');
    },
  };
}
