import type { ServerResponse } from 'node:http';
import { sendJson } from '@platform/testkit';
import { planFor, type StreamPlan } from './vendor-streams';

/** OpenAI's Responses and embeddings wire formats, as the OpenAI stand-in speaks them. */

export const OPENAI_RESPONSES_USAGE = {
  input_tokens: 11,
  input_tokens_details: { cached_tokens: 4 },
  output_tokens: 7,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 18,
};

type Item = { type?: string; role?: string; content?: string | { text?: string }[] };

export interface ResponsesRequestBody {
  model?: string;
  input?: string | Item[];
  tools?: { type: string; name?: string }[];
  stream?: boolean;
}

function lastUserText(body: ResponsesRequestBody): string {
  if (typeof body.input === 'string') return body.input;
  const user = [...(body.input ?? [])].reverse().find((item) => item.role === 'user');
  const content = user?.content ?? '';
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

function baseResponse(model: string, id: string) {
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: null,
    model,
    output: [] as object[],
    parallel_tool_calls: true,
    previous_response_id: null,
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: null as object | null,
    metadata: {},
  };
}

function outputItems(text: string, tool: string | undefined, status: string) {
  return tool
    ? [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: tool,
          arguments: '{"city": "Paris"}',
          status,
        },
      ]
    : [
        {
          type: 'message',
          id: 'msg_1',
          status,
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
        },
      ];
}

/** A whole Response, or the streamed events of one (planFor's model suffixes apply). */
export async function answerResponses(body: ResponsesRequestBody, res: ServerResponse): Promise<void> {
  const model = `${body.model}-2024-07-18`;
  const text = `openai says: ${lastUserText(body)}`;
  const tool = body.tools?.find((t) => t.type === 'function')?.name;
  if (!body.stream) {
    sendJson(res, 200, {
      ...baseResponse(model, 'resp_whole1'),
      status: 'completed',
      output: outputItems(text, tool, 'completed'),
      usage: OPENAI_RESPONSES_USAGE,
    });
    return;
  }
  await streamResponses(res, planFor(model, text, tool ? { name: tool } : undefined));
}

/** OpenAI's Responses event stream: `event: <type>` and `data: {type, sequence_number, ...}` per event. */
async function streamResponses(res: ServerResponse, plan: StreamPlan): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  let sequence = 0;
  const emit = async (type: string, data: object, wait = 0): Promise<boolean> => {
    if (res.destroyed) return false;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
    if (wait) await sleep(wait);
    return !res.destroyed;
  };
  const response = baseResponse(plan.model, 'resp_stream1');
  if (!(await emit('response.created', { response }, plan.everyMs))) return;
  await emit('response.in_progress', { response });
  const [item] = outputItems(plan.tokens.join(''), plan.tool?.name, 'in_progress');
  await emit('response.output_item.added', {
    output_index: 0,
    item: plan.tool ? { ...item, arguments: '' } : { ...item, content: [] },
  });
  const at = { item_id: item.id, output_index: 0 };
  if (!plan.tool) {
    await emit('response.content_part.added', {
      ...at,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
  }
  const pieces = plan.tool ? plan.tool.argumentPieces : plan.tokens;
  let sent = 0;
  for (const piece of pieces) {
    if (plan.breakAfter !== undefined && sent === plan.breakAfter) {
      res.destroy();
      return;
    }
    if (plan.errorAfter !== undefined && sent === plan.errorAfter) {
      await emit('error', {
        code: 'server_error',
        message: 'The server had an error while processing your request.',
        param: null,
      });
      res.end();
      return;
    }
    const type = plan.tool ? 'response.function_call_arguments.delta' : 'response.output_text.delta';
    const fields = plan.tool ? { ...at, delta: piece } : { ...at, content_index: 0, delta: piece, logprobs: [] };
    if (!(await emit(type, fields, plan.everyMs))) return;
    sent++;
  }
  const done = outputItems(plan.tokens.join(''), plan.tool?.name, 'completed');
  if (plan.tool) {
    await emit('response.function_call_arguments.done', { ...at, arguments: pieces.join('') });
  } else {
    await emit('response.output_text.done', { ...at, content_index: 0, text: pieces.join(''), logprobs: [] });
    await emit('response.content_part.done', {
      ...at,
      content_index: 0,
      part: { type: 'output_text', text: pieces.join(''), annotations: [] },
    });
  }
  await emit('response.output_item.done', { output_index: 0, item: done[0] });
  await emit('response.completed', {
    response: { ...response, status: 'completed', output: done, usage: OPENAI_RESPONSES_USAGE },
  });
  res.end();
}

export interface EmbeddingsRequestBody {
  model?: string;
  input?: string | string[] | number[] | number[][];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
}

/** A vector that depends on the text and its place: the same input always gets the same one. */
function vectorOf(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => ((text.length + i * 7) % 13) / 13 - 0.5);
}

/** OpenAI's embeddings answer: one vector per input, float or base64 (little-endian float32), 3 tokens an input. */
export function answerEmbeddings(body: EmbeddingsRequestBody, res: ServerResponse): void {
  const inputs: string[] =
    typeof body.input === 'string'
      ? [body.input]
      : Array.isArray(body.input) && typeof body.input[0] === 'number'
        ? [JSON.stringify(body.input)]
        : (body.input ?? []).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)));
  const dimensions = body.dimensions ?? 8;
  const data = inputs.map((text, index) => {
    const vector = vectorOf(text, dimensions);
    const embedding =
      body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  const tokens = inputs.length * 3;
  sendJson(res, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export { vectorOf as expectedEmbedding };
