import type { ServerResponse } from 'node:http';

/**
 * The vendors' streaming wire formats, as the stand-ins speak them: OpenAI's chat.completion.chunk
 * SSE ending in [DONE], Anthropic's named events from message_start to message_stop.
 */
export interface StreamPlan {
  model: string;
  /** Text pieces, one chunk (token) each; empty when the answer is a tool call. */
  tokens: string[];
  /** A tool call instead of text: its name and its arguments in pieces. */
  tool?: { name: string; argumentPieces: string[] };
  /** Milliseconds between chunks. */
  everyMs: number;
  /** Cut the connection after this many content chunks (a vendor failing mid-stream). */
  breakAfter?: number;
  /** Send the vendor's own error event after this many content chunks, and end the stream. */
  errorAfter?: number;
}

/** The error event each vendor sends inside a stream that fails after it has begun. */
const OPENAI_STREAM_ERROR = `data: ${JSON.stringify({
  error: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    param: null,
    code: null,
  },
})}\n\n`;
const ANTHROPIC_STREAM_ERROR = `event: error\ndata: ${JSON.stringify({
  type: 'error',
  error: { type: 'overloaded_error', message: 'Overloaded' },
})}\n\n`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
}

/** Writes, then waits `everyMs`; false once the reader has gone (the gateway stopped the call). */
async function emit(res: ServerResponse, text: string, everyMs: number): Promise<boolean> {
  if (res.destroyed) return false;
  res.write(text);
  if (everyMs) await sleep(everyMs);
  return !res.destroyed;
}

export const OPENAI_STREAM_USAGE = {
  prompt_tokens: 11,
  completion_tokens: 7,
  total_tokens: 18,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};

/** OpenAI: `data: {chunk}` lines; with stream_options.include_usage every chunk has usage null and a last chunk carries it. */
export async function streamOpenAi(res: ServerResponse, plan: StreamPlan, includeUsage: boolean): Promise<void> {
  openSse(res);
  const head = { id: 'chatcmpl-stream1', object: 'chat.completion.chunk', created: 1_700_000_000, model: plan.model };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({
      ...head,
      system_fingerprint: 'fp_1',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    })}\n\n`;
  if (!(await emit(res, chunk({ role: 'assistant', content: plan.tool ? null : '', refusal: null }), plan.everyMs)))
    return;
  let sent = 0;
  const pieces = plan.tool
    ? [
        chunk({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: plan.tool.name, arguments: '' } }],
        }),
        ...plan.tool.argumentPieces.map((p) => chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
      ]
    : plan.tokens.map((t) => chunk({ content: t }));
  for (const piece of pieces) {
    if (plan.breakAfter !== undefined && sent === plan.breakAfter) {
      res.destroy();
      return;
    }
    if (plan.errorAfter !== undefined && sent === plan.errorAfter) {
      res.end(OPENAI_STREAM_ERROR);
      return;
    }
    if (!(await emit(res, piece, plan.everyMs))) return;
    sent++;
  }
  await emit(res, chunk({}, plan.tool ? 'tool_calls' : 'stop'), 0);
  if (includeUsage) {
    await emit(res, `data: ${JSON.stringify({ ...head, choices: [], usage: OPENAI_STREAM_USAGE })}\n\n`, 0);
  }
  res.end('data: [DONE]\n\n');
}

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** Anthropic: message_start, content blocks (text_delta or input_json_delta), message_delta with the stop reason and usage, message_stop. */
export async function streamAnthropic(res: ServerResponse, plan: StreamPlan): Promise<void> {
  openSse(res);
  const usage = { input_tokens: 20, cache_creation_input_tokens: 2, cache_read_input_tokens: 3, output_tokens: 1 };
  const start = event('message_start', {
    message: {
      id: 'msg_stream1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: plan.model,
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  if (!(await emit(res, start, plan.everyMs))) return;
  const block = plan.tool
    ? { type: 'tool_use', id: 'toolu_1', name: plan.tool.name, input: {} }
    : { type: 'text', text: '' };
  if (!(await emit(res, event('content_block_start', { index: 0, content_block: block }), 0))) return;
  await emit(res, event('ping', {}), 0);
  const deltas = plan.tool
    ? plan.tool.argumentPieces.map((p) => ({ type: 'input_json_delta', partial_json: p }))
    : plan.tokens.map((t) => ({ type: 'text_delta', text: t }));
  let sent = 0;
  for (const delta of deltas) {
    if (plan.breakAfter !== undefined && sent === plan.breakAfter) {
      res.destroy();
      return;
    }
    if (plan.errorAfter !== undefined && sent === plan.errorAfter) {
      res.end(ANTHROPIC_STREAM_ERROR);
      return;
    }
    if (!(await emit(res, event('content_block_delta', { index: 0, delta }), plan.everyMs))) return;
    sent++;
  }
  await emit(res, event('content_block_stop', { index: 0 }), 0);
  const stop = plan.tool ? 'tool_use' : 'end_turn';
  await emit(
    res,
    event('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }),
    0,
  );
  res.end(event('message_stop', {}));
}

/**
 * What a stand-in streams for a model name: `-trickle-<ms>` sends a token every <ms> (up to
 * 100,000 of them: until the reader goes), `-break` cuts the connection after two chunks,
 * `-stream-error` sends the vendor's error event after two chunks.
 */
export function planFor(model: string, text: string, tool?: { name: string; input?: unknown }): StreamPlan {
  const trickle = /-trickle-(\d+)/.exec(model);
  const words = text.split(/(?<= )/);
  return {
    model,
    tokens: trickle ? Array.from({ length: 100_000 }, (_, i) => `t${i} `) : words,
    tool: tool ? { name: tool.name, argumentPieces: piecesOf(tool.input) } : undefined,
    // A break comes after the first chunks have surely reached the gateway.
    everyMs: trickle ? Number(trickle[1]) : /-break|-stream-error/.test(model) ? 30 : 0,
    breakAfter: model.includes('-break') ? 2 : undefined,
    errorAfter: model.includes('-stream-error') ? 2 : undefined,
  };
}

/** A tool's input as the vendors stream it: its JSON in three pieces (the weather tool's by default). */
function piecesOf(input: unknown): string[] {
  if (input === undefined) return ['{"city"', ': "Par', 'is"}'];
  const json = JSON.stringify(input);
  const third = Math.ceil(json.length / 3);
  return [json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)].filter(Boolean);
}
