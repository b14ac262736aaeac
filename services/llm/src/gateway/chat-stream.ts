import { once } from 'node:events';
import type { Response } from 'express';
import { tracesLlmContent } from '../telemetry/gen-ai-call';
import { errors, leaveInFlight, type Tenant } from '@platform/tenancy';
import type { ChatChunk, ChatStream } from '../vendors/chat-types';
import { failureOf, firstSuccess } from './chat-attempts';
import type { ChatBody } from './chat-request.schema';
import { admitChat, finish, formatUsd, type Gateway } from './chat.service';

/**
 * Writes one event; false when the client's socket is full (wait for `drained` before the next).
 * The first, with the headers, is not corked for the turn: the client waits for it, and the rest
 * of its vendor read (or the whole stream, when the vendor sent it in one piece) must not hold it
 * back. Later events written in one turn of the event loop leave together in one write, not one
 * system call each.
 */
function send(res: Response, data: string): boolean {
  if (res.headersSent && !res.writableCorked) {
    res.cork();
    setImmediate(() => res.uncork());
  }
  return res.write(`data: ${data}\n\n`);
}

/** The client's socket took what was written, or is gone (then at once: its 'close' may have passed). */
const drained = async (res: Response) => {
  if (!res.destroyed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
};

/**
 * A streamed completion as OpenAI streams it: chat.completion.chunk events, the usage chunk when
 * asked for, then [DONE]. Nothing is sent before the vendor's first chunk, so retries and
 * fallbacks apply until then; a failure after it ends the stream with an error event. Usage is
 * logged in every case, a client that leaves included (its leaving stops the vendor call).
 */
export async function streamChat(gateway: Gateway, tenant: Tenant, body: ChatBody, res: Response): Promise<void> {
  const { streams, settings } = gateway;
  const releaseStream = streams.tryAcquire(tenant.projectId);
  if (!releaseStream) {
    const projectFull = streams.holding(tenant.projectId) >= settings.gatewayMaxStreamsPerProject;
    const message = projectFull ? 'Too many open streams for this project' : 'This replica has no stream free';
    throw errors.rateLimited(message, 1);
  }
  const controller = new AbortController();
  let clientLeft = false;
  const onClose = () => {
    if (res.writableFinished) return;
    clientLeft = true;
    controller.abort();
  };
  res.on('close', onClose);
  const deadline = setTimeout(() => controller.abort(), settings.gatewayStreamMaxMs).unref();
  try {
    const chat = await admitChat(gateway, tenant, body);
    try {
      const done = await firstSuccess(
        gateway,
        tenant,
        chat.log,
        chat.models,
        chat.request,
        controller.signal,
        async (client, request) => {
          const stream = await client.chatStream(request, controller.signal);
          const chunks = stream[Symbol.asyncIterator]();
          return { stream, chunks, first: await chunks.next() };
        },
      );
      const firstChunkAt = performance.now();
      const { stream, chunks, first } = done.value;
      const seen: StreamSeen = { finishReasons: [] };
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('x-accel-buffering', 'no');
      res.setHeader('x-llm-request-id', chat.log.requestId);
      res.setHeader('trailer', 'x-llm-cost-usd');
      // The headers go out with the first chunk, in one write.
      leaveInFlight(res);
      const error = await relay(res, stream, chunks, first, seen, body.stream_options?.include_usage === true, (e) => {
        if (clientLeft) return 'client disconnected';
        return controller.signal.aborted ? 'stream time limit reached' : failureOf(e, done.client.apiKey).message;
      });
      chat.log.record(done.model, done.provider, done.started, {
        tokens: stream.tokens,
        error,
        ...seen,
        firstChunkAt,
        errorType: error === null ? undefined : 'stream_interrupted',
        ...(tracesLlmContent(tenant) && { content: { input: chat.request.messages } }),
      });
      if (!clientLeft) {
        if (chat.log.costUsd !== null) res.addTrailers({ 'x-llm-cost-usd': formatUsd(chat.log.costUsd) });
        res.end();
      }
    } finally {
      finish(gateway.limits, tenant, chat);
    }
  } finally {
    clearTimeout(deadline);
    res.off('close', onClose);
    releaseStream();
  }
}

/** What the chunks said about the answer, for the attempt's trace span. */
interface StreamSeen {
  responseModel?: string;
  finishReasons: string[];
}

/** Sends the chunks on; returns null when the stream ended well, else what ended it. */
async function relay(
  res: Response,
  stream: ChatStream,
  chunks: AsyncIterator<ChatChunk>,
  first: IteratorResult<ChatChunk>,
  seen: StreamSeen,
  includeUsage: boolean,
  reason: (error: unknown) => string,
): Promise<string | null> {
  try {
    for (let next = first; !next.done; next = await chunks.next()) {
      seen.responseModel = next.value.model;
      for (const choice of next.value.choices) if (choice.finish_reason) seen.finishReasons.push(choice.finish_reason);
      if (!send(res, JSON.stringify(next.value))) await drained(res);
    }
    if (includeUsage) send(res, JSON.stringify(stream.usageChunk()));
    send(res, '[DONE]');
    return null;
  } catch (error) {
    const message = reason(error);
    if (!res.destroyed) {
      send(res, JSON.stringify({ error: { message, type: 'api_error', code: 'VENDOR_ERROR', param: null } }));
    }
    return message;
  }
}
