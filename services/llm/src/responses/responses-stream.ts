import { once } from 'node:events';
import type { Response } from 'express';
import { AppError, leaveInFlight, type Tenant } from '@platform/tenancy';
import { failureOf, firstSuccess } from '../gateway/chat-attempts';
import { finish, formatUsd, type Gateway } from '../gateway/chat.service';
import type { ResponsesEvent, ResponsesStream } from '../vendors/openai-responses';
import type { ResponsesBody } from './responses-request.schema';
import { admitResponses, attemptStream } from './responses.service';

/** Writes one event; later events of one event-loop turn leave in one write (as the chat stream does). */
function send(res: Response, type: string, json: string): boolean {
  if (res.headersSent && !res.writableCorked) {
    res.cork();
    setImmediate(() => res.uncork());
  }
  return res.write(`event: ${type}\ndata: ${json}\n\n`);
}

const drained = async (res: Response) => {
  if (!res.destroyed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
};

/** An open stream slot of this replica for the project, or 429 naming which bound is full. */
function takeStreamSlot({ streams, settings }: Gateway, tenant: Tenant): () => void {
  const release = streams.tryAcquire(tenant.projectId);
  if (release) return release;
  const projectFull = streams.holding(tenant.projectId) >= settings.gatewayMaxStreamsPerProject;
  const message = projectFull ? 'Too many open streams for this project' : 'This replica has no stream free';
  throw new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': '1' } });
}

/**
 * A streamed Response as OpenAI streams it (`event: <type>` and `data: {...}` per event, from
 * response.created to response.completed with the usage). Nothing is sent before the vendor's
 * first event, so retries and fallbacks apply until then; a failure after it ends the stream
 * with an `error` event. Usage is logged in every case, a client that leaves included (its
 * leaving stops the vendor call), and the cost goes as the `x-llm-cost-usd` trailer.
 */
export async function streamResponse(
  gateway: Gateway,
  tenant: Tenant,
  body: ResponsesBody,
  res: Response,
): Promise<void> {
  const releaseStream = takeStreamSlot(gateway, tenant);
  const controller = new AbortController();
  let clientLeft = false;
  const onClose = () => {
    if (res.writableFinished) return;
    clientLeft = true;
    controller.abort();
  };
  res.on('close', onClose);
  const deadline = setTimeout(() => controller.abort(), gateway.settings.gatewayStreamMaxMs).unref();
  try {
    const chat = await admitResponses(gateway, tenant, body);
    try {
      const done = await firstSuccess(
        gateway,
        tenant,
        chat.log,
        chat.models,
        chat.request,
        controller.signal,
        async (client, request) => {
          const stream = await attemptStream(body, client, request, controller.signal);
          const events = stream[Symbol.asyncIterator]();
          return { stream, events, first: await events.next() };
        },
      );
      const { stream, events, first } = done.value;
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('x-accel-buffering', 'no');
      res.setHeader('x-llm-request-id', chat.log.requestId);
      res.setHeader('trailer', 'x-llm-cost-usd');
      leaveInFlight(res);
      const error = await relay(res, stream, events, first, (e) => {
        if (clientLeft) return 'client disconnected';
        return controller.signal.aborted ? 'stream time limit reached' : failureOf(e, done.client.apiKey).message;
      });
      chat.log.record(done.model, done.provider, done.started, { tokens: stream.tokens, error });
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

/** Sends the events on; null when the response completed, else what ended it (the vendor's failure event included). */
async function relay(
  res: Response,
  stream: ResponsesStream,
  events: AsyncIterator<ResponsesEvent>,
  first: IteratorResult<ResponsesEvent>,
  reason: (error: unknown) => string,
): Promise<string | null> {
  let sent = 0;
  try {
    for (let next = first; !next.done; next = await events.next()) {
      sent++;
      if (!send(res, next.value.type, next.value.json)) await drained(res);
    }
    return stream.failure;
  } catch (error) {
    const message = reason(error);
    if (!res.destroyed) {
      const event = { type: 'error', code: 'VENDOR_ERROR', message, param: null, sequence_number: sent };
      send(res, 'error', JSON.stringify(event));
    }
    return message;
  }
}
