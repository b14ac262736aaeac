import type { ServerResponse } from 'node:http';
import { sendJson, startHttpStub, type HttpStub, type RecordedRequest } from '@platform/testkit';
import { answerEmbeddings, answerResponses, type ResponsesRequestBody } from './openai-responses-stub';
import { OPENAI_STREAM_USAGE, planFor, streamAnthropic, streamOpenAi } from './vendor-streams';

/** Keys the stand-ins accept; anything else is refused the way each vendor refuses it. */
export const OPENAI_KEY = 'sk-test-openai-valid-0123456789';
export const ANTHROPIC_KEY = 'sk-ant-test-valid-0123456789';

export interface StubOptions {
  /** Milliseconds before each completion answer. */
  delayMs?: number;
  /** Further keys accepted besides the default one. */
  extraKeys?: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

type Body = {
  model?: string;
  messages?: { role: string; content: string }[];
  max_tokens?: number;
  system?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { name?: string; function?: { name: string } }[];
};

/** A failure the next chat request gets instead of an answer: a status (with headers), or 0 to drop the connection. */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
}

/** Test controls every stand-in has: failures queued for the next chat requests, streams the reader left. */
export interface VendorControls {
  faults: Fault[];
  /** Streams whose reader went away before the end (the gateway stopped the vendor call). */
  abandoned: number;
}

/** Answers the next queued fault, if any; true when it did. */
function answerFault(controls: VendorControls, res: ServerResponse, body: (status: number) => object): boolean {
  const fault = controls.faults.shift();
  if (!fault) return false;
  if (fault.status === 0) res.socket?.destroy();
  else sendJson(res, fault.status, body(fault.status), fault.headers);
  return true;
}

function watchAbandon(controls: VendorControls, res: ServerResponse): void {
  res.on('close', () => {
    if (!res.writableFinished) controls.abandoned++;
  });
}

/** The stub with its controls; `abandoned` reads the live count. */
function withControls<T extends HttpStub>(stub: T, controls: VendorControls): T & VendorControls {
  Object.defineProperty(stub, 'abandoned', { get: () => controls.abandoned, enumerable: true });
  return Object.assign(stub, { faults: controls.faults }) as T & VendorControls;
}

const toolName = (body: Body) => body.tools?.[0]?.function?.name ?? body.tools?.[0]?.name;

function lastUserText(body: Body): string {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  const content: unknown = user?.content ?? '';
  // Anthropic takes content as a string or as blocks.
  if (Array.isArray(content)) return content.map((block: { text?: string }) => block.text ?? '').join('');
  return String(content);
}

/** A model named *-slow waits 2 s, *-delay-<ms> waits that long; others wait `delayMs`. */
async function delayFor(model: string | undefined, options: StubOptions): Promise<void> {
  const delay = /-delay-(\d+)$/.exec(model ?? '');
  if (model?.endsWith('-slow')) await sleep(2_000);
  else if (delay) await sleep(Number(delay[1]));
  else if (options.delayMs) await sleep(options.delayMs);
}

export interface OpenAiStub extends HttpStub, VendorControls {
  /** Chat completions being answered now, and the most at once since start. */
  load: { inFlight: number; peak: number };
}

/**
 * Speaks the OpenAI REST API: POST /v1/chat/completions, /v1/responses (whole and streamed) and
 * /v1/embeddings, GET /v1/models, OpenAI error bodies.
 * The API may sit under a path prefix (`<url>/<prefix>/v1`), so that tests can tell callers apart.
 */
export async function openAiStub(options: StubOptions = {}): Promise<OpenAiStub> {
  const keys = new Set([OPENAI_KEY, ...(options.extraKeys ?? [])]);
  const load = { inFlight: 0, peak: 0 };
  const controls: VendorControls = { faults: [], abandoned: 0 };
  const stub = await startHttpStub(async (req: RecordedRequest, res: ServerResponse) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!keys.has(key)) {
      sendJson(res, 401, {
        error: {
          message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      return;
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'gpt-4o-mini', object: 'model', created: 1700000000, owned_by: 'system' }],
      });
      return;
    }
    if (req.method === 'POST' && req.path.endsWith('/v1/chat/completions')) {
      const openAiError = (status: number) => ({
        error: { message: `stand-in failure ${status}`, type: 'server_error', param: null, code: null },
      });
      if (answerFault(controls, res, openAiError)) return;
      load.inFlight++;
      load.peak = Math.max(load.peak, load.inFlight);
      try {
        await answerChatCompletion(req.body as Body, res, options, controls);
      } finally {
        load.inFlight--;
      }
      return;
    }
    if (req.method === 'POST' && (req.path.endsWith('/v1/responses') || req.path.endsWith('/v1/embeddings'))) {
      const openAiError = (status: number) => ({
        error: { message: `stand-in failure ${status}`, type: 'server_error', param: null, code: null },
      });
      if (answerFault(controls, res, openAiError)) return;
      const body = req.body as ResponsesRequestBody;
      if (req.path.endsWith('/v1/embeddings')) return answerEmbeddings(body as object, res);
      await delayFor(body.model, options);
      if (body.stream) watchAbandon(controls, res);
      return answerResponses(body, res);
    }
    sendJson(res, 404, { error: { message: `Unknown path ${req.path}`, type: 'invalid_request_error' } });
  });
  return withControls(Object.assign(stub, { load }), controls);
}

async function answerChatCompletion(
  body: Body,
  res: ServerResponse,
  options: StubOptions,
  controls: VendorControls,
): Promise<void> {
  if (body.model === 'gpt-nonexistent') {
    sendJson(res, 404, {
      error: {
        message: 'The model `gpt-nonexistent` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
    return;
  }
  await delayFor(body.model, options);
  const text = `openai says: ${lastUserText(body)}`;
  const tool = toolName(body);
  if (body.stream) {
    watchAbandon(controls, res);
    await streamOpenAi(
      res,
      planFor(`${body.model}-2024-07-18`, text, tool ? { name: tool } : undefined),
      body.stream_options?.include_usage === true,
    );
    return;
  }
  const message = tool
    ? {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool, arguments: '{"city": "Paris"}' } }],
      }
    : { role: 'assistant', content: text, refusal: null };
  sendJson(res, 200, {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: `${body.model}-2024-07-18`,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: tool ? 'tool_calls' : 'stop',
      },
    ],
    usage: OPENAI_STREAM_USAGE,
  });
}

/** Speaks the Anthropic REST API: POST /v1/messages, GET /v1/models, Anthropic error bodies. */
export async function anthropicStub(options: StubOptions = {}): Promise<AnthropicStub> {
  const keys = new Set([ANTHROPIC_KEY, ...(options.extraKeys ?? [])]);
  const controls: VendorControls = { faults: [], abandoned: 0 };
  const stub = await startHttpStub(async (req: RecordedRequest, res: ServerResponse) => {
    if (!keys.has(String(req.headers['x-api-key'] ?? ''))) {
      sendJson(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      return;
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/models')) {
      sendJson(res, 200, {
        data: [
          {
            type: 'model',
            id: 'claude-sonnet-4-5',
            display_name: 'Claude Sonnet 4.5',
            created_at: '2025-09-29T00:00:00Z',
          },
        ],
        has_more: false,
        first_id: 'claude-sonnet-4-5',
        last_id: 'claude-sonnet-4-5',
      });
      return;
    }
    if (req.method === 'POST' && req.path === '/v1/messages') {
      const body = req.body as Body;
      const anthropicError = (status: number) => ({
        type: 'error',
        error: { type: status === 529 ? 'overloaded_error' : 'api_error', message: `stand-in failure ${status}` },
      });
      if (answerFault(controls, res, anthropicError)) return;
      if (body.model === 'claude-overloaded') {
        sendJson(res, 400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'model: claude-overloaded is not supported' },
        });
        return;
      }
      await delayFor(body.model, options);
      const text = `anthropic says: ${lastUserText(body)}`;
      const tool = toolName(body);
      if (body.stream) {
        watchAbandon(controls, res);
        await streamAnthropic(res, planFor(body.model ?? '', text, tool ? { name: tool } : undefined));
        return;
      }
      sendJson(res, 200, {
        id: `msg_${Math.random().toString(36).slice(2)}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: tool
          ? [{ type: 'tool_use', id: 'toolu_1', name: tool, input: { city: 'Paris' } }]
          : [{ type: 'text', text }],
        stop_reason: tool ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 5, cache_creation_input_tokens: 2, cache_read_input_tokens: 3 },
      });
      return;
    }
    sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `Unknown path ${req.path}` } });
  });
  return withControls(stub, controls);
}

export interface AnthropicStub extends HttpStub, VendorControls {}
