import type { ChatStream } from '../vendors/chat-types';
import type { ResponsesEvent, ResponsesStream } from '../vendors/openai-responses';
import type { ResponsesBody } from './responses-request.schema';
import { itemId, responseObject, responseUsage, type OutputItem, type ResponseState } from './response-object';

type MessageItem = Extract<OutputItem, { type: 'message' }>;
type CallItem = Extract<OutputItem, { type: 'function_call' }>;

/**
 * A translated chat stream (a claude model's) as OpenAI's Responses events: response.created and
 * in_progress, an output item per message and per function call with their deltas and their done
 * events, then response.completed (or response.incomplete) with the usage.
 */
export function chatStreamAsResponses(body: ResponsesBody, chat: ChatStream, model: string): ResponsesStream {
  let sequence = 0;
  const state: ResponseState = {
    id: itemId('resp'),
    createdAt: Math.floor(Date.now() / 1000),
    model,
    status: 'in_progress',
    output: [],
    usage: null,
  };
  const event = (type: string, fields: object): ResponsesEvent => ({
    type,
    json: JSON.stringify({ type, sequence_number: sequence++, ...fields }),
  });
  const snapshot = () => responseObject(body, { ...state, output: state.output.map((item) => ({ ...item })) });
  let message: MessageItem | undefined;
  const calls = new Map<number, CallItem>();

  function* openMessage(): Generator<ResponsesEvent> {
    message = { type: 'message', id: itemId('msg'), status: 'in_progress', role: 'assistant', content: [] };
    const output_index = state.output.push(message) - 1;
    yield event('response.output_item.added', { output_index, item: { ...message, content: [] } });
    const part = { type: 'output_text' as const, text: '', annotations: [], logprobs: [] };
    message.content.push(part);
    yield event('response.content_part.added', { item_id: message.id, output_index, content_index: 0, part });
  }

  function* closeItems(): Generator<ResponsesEvent> {
    for (const [output_index, item] of state.output.entries()) {
      if (item.status === 'completed') continue;
      item.status = 'completed';
      if (item.type === 'message') {
        const part = item.content[0];
        const at = { item_id: item.id, output_index, content_index: 0 };
        yield event('response.output_text.done', { ...at, text: part.text, logprobs: [] });
        yield event('response.content_part.done', { ...at, part });
      } else {
        yield event('response.function_call_arguments.done', {
          item_id: item.id,
          output_index,
          name: item.name,
          arguments: item.arguments,
        });
      }
      yield event('response.output_item.done', { output_index, item });
    }
  }

  return {
    get tokens() {
      return chat.tokens;
    },
    get exact() {
      return chat.exact;
    },
    failure: null,
    async *[Symbol.asyncIterator]() {
      // The vendor's first chunk comes before response.created: until then a retry or a fallback may still answer.
      const chunks = chat[Symbol.asyncIterator]();
      let next = await chunks.next();
      yield event('response.created', { response: snapshot() });
      yield event('response.in_progress', { response: snapshot() });
      let finish: string | null = null;
      for (; !next.done; next = await chunks.next()) {
        const chunk = next.value;
        state.model = chunk.model || state.model;
        const choice = chunk.choices[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta?.content) {
          if (!message) yield* openMessage();
          const output_index = state.output.indexOf(message!);
          message!.content[0].text += delta.content;
          yield event('response.output_text.delta', {
            item_id: message!.id,
            output_index,
            content_index: 0,
            delta: delta.content,
            logprobs: [],
          });
        }
        for (const call of delta?.tool_calls ?? []) {
          let item = calls.get(call.index);
          if (!item) {
            item = {
              type: 'function_call',
              id: itemId('fc'),
              call_id: call.id ?? itemId('call'),
              name: call.function?.name ?? '',
              arguments: '',
              status: 'in_progress',
            };
            calls.set(call.index, item);
            const output_index = state.output.push(item) - 1;
            yield event('response.output_item.added', { output_index, item: { ...item } });
          }
          const piece = call.function?.arguments;
          if (piece) {
            item.arguments += piece;
            yield event('response.function_call_arguments.delta', {
              item_id: item.id,
              output_index: state.output.indexOf(item),
              delta: piece,
            });
          }
        }
        finish = choice.finish_reason ?? finish;
      }
      yield* closeItems();
      state.usage = responseUsage(chat.tokens);
      if (finish === 'length' || finish === 'content_filter') {
        state.status = 'incomplete';
        state.incompleteReason = finish === 'length' ? 'max_output_tokens' : 'content_filter';
        yield event('response.incomplete', { response: snapshot() });
      } else {
        state.status = 'completed';
        yield event('response.completed', { response: snapshot() });
      }
    },
  };
}
