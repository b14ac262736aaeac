import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { TokenCounts } from '../usage/price-table';
import { toAnthropicRequest } from './anthropic-chat-request';
import { StreamCutError } from './vendor-errors';
import {
  STRUCTURED_OUTPUT_TOOL,
  StructuredOutputError,
  structuredAnswer,
  structuredFormatOf,
} from './structured-output';
import {
  estimatePromptTokens,
  openAiUsage,
  zeroTokens,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  type ChatStream,
} from './chat-types';

type FinishReason = OpenAI.Chat.ChatCompletion.Choice['finish_reason'];

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

const finishOf = (reason: string | null | undefined): FinishReason => FINISH[reason ?? ''] ?? 'stop';

export type AnthropicUsage = Partial<Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens'>> & {
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

/** Anthropic counts cache reads and writes apart from input_tokens; OpenAI's prompt_tokens holds them all. */
export function addUsage(tokens: TokenCounts, usage: AnthropicUsage | null | undefined): void {
  if (!usage) return;
  const cached = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  if (usage.input_tokens != null) {
    tokens.prompt = usage.input_tokens + cached + cacheWrite;
    tokens.cached = cached;
    tokens.cacheWrite = cacheWrite;
  }
  if (usage.output_tokens != null) tokens.completion = usage.output_tokens;
}

const ONE_ATTEMPT = { maxRetries: 0 } as const;
const now = () => Math.floor(Date.now() / 1000);

export async function anthropicChat(
  client: Anthropic,
  request: ChatRequest,
  defaultMaxTokens: number,
  signal?: AbortSignal,
): Promise<ChatResult> {
  const message = await client.messages.create(
    { ...toAnthropicRequest(request, defaultMaxTokens), stream: false },
    { ...ONE_ATTEMPT, signal },
  );
  const tokens = zeroTokens();
  addUsage(tokens, message.usage);
  const format = structuredFormatOf(request.response_format);
  const answer = format
    ? message.content.find((block) => block.type === 'tool_use' && block.name === STRUCTURED_OUTPUT_TOOL)
    : undefined;
  const text = message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
  const toolCalls = message.content
    .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use' && block !== answer)
    .map((block) => ({
      id: block.id,
      type: 'function' as const,
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
    }));
  if (format && !answer && !toolCalls.length) throw new StructuredOutputError('the model answered in prose');
  // With a response format, the answer is the answer tool's input, never the prose around it.
  const content = answer?.type === 'tool_use' ? structuredAnswer(format!, answer.input) : format ? null : text;
  return {
    tokens,
    completion: {
      id: `chatcmpl-${message.id}`,
      object: 'chat.completion',
      created: now(),
      model: message.model || request.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: content || (toolCalls.length ? null : ''),
            refusal: null,
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: answer && message.stop_reason === 'tool_use' ? 'stop' : finishOf(message.stop_reason),
        },
      ],
      usage: openAiUsage(tokens),
    },
  };
}

/** Anthropic's stream events as OpenAI chunks: text and tool-call argument deltas, the stop reason, usage. */
export async function anthropicChatStream(
  client: Anthropic,
  request: ChatRequest,
  defaultMaxTokens: number,
  signal?: AbortSignal,
): Promise<ChatStream> {
  const events = await client.messages.create(
    { ...toAnthropicRequest(request, defaultMaxTokens), stream: true },
    { ...ONE_ATTEMPT, signal },
  );
  const tokens = zeroTokens();
  tokens.prompt = estimatePromptTokens(request);
  let exact = false;
  let head = { id: 'chatcmpl-', created: now(), model: request.model };
  const format = structuredFormatOf(request.response_format);
  const chunk = (
    delta: OpenAI.Chat.ChatCompletionChunk.Choice.Delta,
    finish: FinishReason | null = null,
  ): ChatChunk => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  return {
    get tokens() {
      return tokens;
    },
    get exact() {
      return exact;
    },
    usageChunk: () => ({ ...head, object: 'chat.completion.chunk', choices: [], usage: openAiUsage(tokens) }),
    async *[Symbol.asyncIterator]() {
      // Anthropic numbers all content blocks; OpenAI numbers tool calls only.
      const toolIndex = new Map<number, number>();
      let finished = false;
      // With a response format: the answer tool's block, streamed as the content, and its JSON so far.
      let answerIndex: number | undefined;
      let answerJson = '';
      for await (const event of events) {
        switch (event.type) {
          case 'message_start':
            head = { id: `chatcmpl-${event.message.id}`, created: now(), model: event.message.model || request.model };
            addUsage(tokens, event.message.usage);
            tokens.completion = event.message.usage?.output_tokens ?? 0;
            yield chunk({ role: 'assistant', content: '', refusal: null });
            break;
          case 'content_block_start':
            if (
              format &&
              event.content_block.type === 'tool_use' &&
              event.content_block.name === STRUCTURED_OUTPUT_TOOL
            ) {
              answerIndex = event.index;
            } else if (event.content_block.type === 'tool_use') {
              const index = toolIndex.size;
              toolIndex.set(event.index, index);
              yield chunk({
                tool_calls: [
                  {
                    index,
                    id: event.content_block.id,
                    type: 'function',
                    function: { name: event.content_block.name, arguments: '' },
                  },
                ],
              });
            }
            break;
          case 'content_block_delta':
            if (event.index === answerIndex && event.delta.type === 'input_json_delta') {
              tokens.completion++;
              answerJson += event.delta.partial_json;
              yield chunk({ content: event.delta.partial_json });
            } else if (event.delta.type === 'text_delta') {
              tokens.completion++;
              if (format) break; // prose around a structured answer is left out
              yield chunk({ content: event.delta.text });
            } else if (event.delta.type === 'input_json_delta' && toolIndex.has(event.index)) {
              tokens.completion++;
              yield chunk({
                tool_calls: [{ index: toolIndex.get(event.index)!, function: { arguments: event.delta.partial_json } }],
              });
            }
            break;
          case 'message_delta': {
            addUsage(tokens, event.usage as AnthropicUsage);
            exact = true;
            if (format && answerIndex === undefined && !toolIndex.size) {
              throw new StructuredOutputError('the model answered in prose');
            }
            if (answerIndex !== undefined) structuredAnswer(format!, answerJson);
            const answered = answerIndex !== undefined && event.delta.stop_reason === 'tool_use';
            yield chunk({}, answered ? 'stop' : finishOf(event.delta.stop_reason));
            break;
          }
          case 'message_stop':
            finished = true;
            break;
          default:
            break;
        }
      }
      if (!finished) throw new StreamCutError();
    },
  };
}
