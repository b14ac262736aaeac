import type { ServerResponse } from 'node:http';
import { sendJson, startHttpStub, type HttpStub, type RecordedRequest } from '@platform/testkit';

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

type Body = { model?: string; messages?: { role: string; content: string }[]; max_tokens?: number; system?: string };

function lastUserText(body: Body): string {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  return user?.content ?? '';
}

/** A model named *-slow waits 2 s, *-delay-<ms> waits that long; others wait `delayMs`. */
async function delayFor(model: string | undefined, options: StubOptions): Promise<void> {
  const delay = /-delay-(\d+)$/.exec(model ?? '');
  if (model?.endsWith('-slow')) await sleep(2_000);
  else if (delay) await sleep(Number(delay[1]));
  else if (options.delayMs) await sleep(options.delayMs);
}

export interface OpenAiStub extends HttpStub {
  /** Chat completions being answered now, and the most at once since start. */
  load: { inFlight: number; peak: number };
}

/**
 * Speaks the OpenAI REST API: POST /v1/chat/completions, GET /v1/models, OpenAI error bodies.
 * The API may sit under a path prefix (`<url>/<prefix>/v1`), so that tests can tell callers apart.
 */
export async function openAiStub(options: StubOptions = {}): Promise<OpenAiStub> {
  const keys = new Set([OPENAI_KEY, ...(options.extraKeys ?? [])]);
  const load = { inFlight: 0, peak: 0 };
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
      load.inFlight++;
      load.peak = Math.max(load.peak, load.inFlight);
      try {
        await answerChatCompletion(req.body as Body, res, options);
      } finally {
        load.inFlight--;
      }
      return;
    }
    sendJson(res, 404, { error: { message: `Unknown path ${req.path}`, type: 'invalid_request_error' } });
  });
  return Object.assign(stub, { load });
}

async function answerChatCompletion(body: Body, res: ServerResponse, options: StubOptions): Promise<void> {
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
  sendJson(res, 200, {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: `${body.model}-2024-07-18`,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
  });
}

/** Speaks the Anthropic REST API: POST /v1/messages, GET /v1/models, Anthropic error bodies. */
export function anthropicStub(options: StubOptions = {}): Promise<HttpStub> {
  const keys = new Set([ANTHROPIC_KEY, ...(options.extraKeys ?? [])]);
  return startHttpStub(async (req: RecordedRequest, res: ServerResponse) => {
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
      if (body.model === 'claude-overloaded') {
        sendJson(res, 400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'model: claude-overloaded is not supported' },
        });
        return;
      }
      await delayFor(body.model, options);
      sendJson(res, 200, {
        id: `msg_${Math.random().toString(36).slice(2)}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text: `anthropic says: ${lastUserText(body)}` }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 5, cache_creation_input_tokens: 2, cache_read_input_tokens: 3 },
      });
      return;
    }
    sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `Unknown path ${req.path}` } });
  });
}
