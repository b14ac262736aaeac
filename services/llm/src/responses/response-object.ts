import { randomBytes } from 'node:crypto';
import type { TokenCounts } from '../usage/price-table';
import type { ChatCompletion } from '../vendors/chat-types';
import type { ResponsesBody } from './responses-request.schema';

/** A Responses output item, as the gateway builds it for a translated answer. */
export type OutputItem =
  | {
      type: 'message';
      id: string;
      status: 'in_progress' | 'completed';
      role: 'assistant';
      content: { type: 'output_text'; text: string; annotations: never[]; logprobs: never[] }[];
    }
  | {
      type: 'function_call';
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: 'in_progress' | 'completed';
    };

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** An id in OpenAI's form: a prefix and random hex. */
export const itemId = (prefix: string) => `${prefix}_${randomBytes(24).toString('hex')}`;

export function responseUsage(tokens: TokenCounts): ResponseUsage {
  return {
    input_tokens: tokens.prompt,
    input_tokens_details: { cached_tokens: tokens.cached },
    output_tokens: tokens.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens.prompt + tokens.completion,
  };
}

/** Usage in the Responses naming, as OpenAI reports it, read into the gateway's counts. */
export function tokensOfResponseUsage(usage: Partial<ResponseUsage> | null | undefined): TokenCounts {
  return {
    prompt: usage?.input_tokens ?? 0,
    completion: usage?.output_tokens ?? 0,
    cached: usage?.input_tokens_details?.cached_tokens ?? 0,
    cacheWrite: 0,
  };
}

export interface ResponseState {
  id: string;
  createdAt: number;
  model: string;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: OutputItem[];
  usage: ResponseUsage | null;
  incompleteReason?: 'max_output_tokens' | 'content_filter';
}

/** OpenAI's Response object around a state: the request's settings echoed, nothing stored. */
export function responseObject(body: ResponsesBody, state: ResponseState) {
  const text = state.output
    .flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : []))
    .join('');
  return {
    id: state.id,
    object: 'response' as const,
    created_at: state.createdAt,
    status: state.status,
    background: false,
    error: null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: state.model,
    output: state.output,
    output_text: text,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? null,
    })),
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: state.usage,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

export type ResponseObject = ReturnType<typeof responseObject>;

/** A whole Chat Completions answer (a claude model's, translated) as a Response. */
export function responseOfChat(body: ResponsesBody, completion: ChatCompletion, tokens: TokenCounts): ResponseObject {
  const choice = completion.choices[0];
  const output: OutputItem[] = [];
  const text = choice?.message.content;
  if (text) {
    output.push({
      type: 'message',
      id: itemId('msg'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of choice?.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    output.push({
      type: 'function_call',
      id: itemId('fc'),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    });
  }
  const incompleteReason =
    choice?.finish_reason === 'length'
      ? 'max_output_tokens'
      : choice?.finish_reason === 'content_filter'
        ? 'content_filter'
        : undefined;
  return responseObject(body, {
    id: itemId('resp'),
    createdAt: completion.created,
    model: completion.model,
    status: incompleteReason ? 'incomplete' : 'completed',
    output,
    usage: responseUsage(tokens),
    incompleteReason,
  });
}
