import { once } from 'node:events';
import type { Response } from 'express';
import { AppError, leaveInFlight, type Tenant } from '@platform/tenancy';
import { failureOf, firstSuccess } from '../gateway/chat-attempts';
import { admitChat, finish, formatUsd, type Gateway } from '../gateway/chat.service';
import type { ChatRequest } from '../vendors/chat-types';
import type { VendorClient } from '../vendors/vendor-types';
import { anthropicEventsOf } from './chat-to-messages';
import { messagesEvent, type MessagesEvent, type MessagesEventStream } from './messages-events';
import type { MessagesBody } from './messages-request.schema';
import { toChatBody } from './messages-to-chat';
import { anthropicBody } from './messages.service';

/** Writes one event; false when the client's socket is full. Later events of one turn leave in one write. */
function send(res: Response, { event, data }: MessagesEvent): boolean {
  if (res.headersSent && !res.writableCorked) {
    res.cork();
    setImmediate(() => res.uncork());
  }
  return res.write(`event: ${event}\ndata: ${data}\n\n`);
}

const drained = async (res: Response) => {
  if (!res.destroyed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
};

/** One attempt's stream: Claude's own events, or an OpenAI model's chunks as Anthropic's events. */
async function openStream(
  client: VendorClient,
  body: MessagesBody,
  request: ChatRequest,
  signal: AbortSignal,
  beta?: string,
): Promise<MessagesEventStream> {
  if (client.messages) return client.messages.stream(anthropicBody(body, request.model), signal, beta);
  return anthropicEventsOf(await client.chatStream(request, signal), request.model);
}

/**
 * A streamed Messages answer as Anthropic streams it (message_start ... message_stop), under the
 * same rules as a streamed chat completion: the replica's and the project's stream caps, nothing
 * sent before the vendor's first event (so retries and fallbacks apply until then), an `error`
 * event for a failure after it, usage logged in every case (a client that leaves included), the
 * cost as the `x-llm-cost-usd` trailer.
 */
export async function streamMessages(
  gateway: Gateway,
  tenant: Tenant,
  body: MessagesBody,
  res: Response,
  beta?: string,
): Promise<void> {
  const { streams, settings } = gateway;
  const releaseStream = streams.tryAcquire(tenant.projectId);
  if (!releaseStream) {
    const projectFull = streams.holding(tenant.projectId) >= settings.gatewayMaxStreamsPerProject;
    const message = projectFull ? 'Too many open streams for this project' : 'This replica has no stream free';
    throw new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': '1' } });
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
    const chat = await admitChat(gateway, tenant, toChatBody(body));
    try {
      const done = await firstSuccess(
        gateway,
        tenant,
        chat.log,
        chat.models,
        chat.request,
        controller.signal,
        async (client, request) => {
          const stream = await openStream(client, body, request, controller.signal, beta);
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
      const error = await relay(res, events, first, (e) => {
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

/** Sends the events on; returns null when the stream ended well, else what ended it (told to the client as an `error` event). */
async function relay(
  res: Response,
  events: AsyncIterator<MessagesEvent>,
  first: IteratorResult<MessagesEvent>,
  reason: (error: unknown) => string,
): Promise<string | null> {
  try {
    for (let next = first; !next.done; next = await events.next()) {
      if (!send(res, next.value)) await drained(res);
    }
    return null;
  } catch (error) {
    const message = reason(error);
    if (!res.destroyed) send(res, messagesEvent('error', { error: { type: 'api_error', message } }));
    return message;
  }
}
