import { once } from 'node:events';
import type { Response } from 'express';
import { errors, leaveInFlight, type Tenant } from '@platform/tenancy';
import type { TokenCounts } from '../usage/price-table';
import type { ChatRequest } from '../vendors/chat-types';
import type { VendorClient } from '../vendors/vendor-types';
import { failureOf, firstSuccess, type AttemptDetail } from './chat-attempts';
import { finish, formatUsd, type AdmittedChat, type Gateway } from './chat.service';

/** A vendor's answer as one API's events. `tokens` grows as it goes, so a stream cut short still tells what it used. */
export interface RelayedStream<E> extends AsyncIterable<E> {
  readonly tokens: TokenCounts;
  /** A failure the vendor told inside the stream (the Responses API's failure event), if any. */
  readonly failure?: string | null;
}

/** How one API writes its stream: each event as a server-sent event, what closes it, and its error event. */
export interface StreamWriter<E> {
  /** One event as the text of a server-sent event (`data: ...\n\n`, with `event: ...` where the API names them). */
  frame(event: E): string;
  /** What follows the last event, if anything (Chat Completions: the usage chunk when asked for, then [DONE]). */
  closing?(): string;
  /** The event that tells the client what ended the stream; `sent` counts the events before it. */
  error(message: string, sent: number): string;
  /** What the events told about the answer, for the attempt's trace span. */
  detail?(): AttemptDetail;
}

/** One API's stream through the gateway: how it is admitted, how an attempt opens it, how it is written. */
export interface StreamRoute<E, S extends RelayedStream<E>> {
  admit(): Promise<AdmittedChat>;
  /** Opens one attempt's stream on the model tried (`request.model`). */
  open(client: VendorClient, request: ChatRequest, signal: AbortSignal): Promise<S>;
  writer(stream: S, chat: AdmittedChat): StreamWriter<E>;
}

/**
 * Writes one event; false when the client's socket is full (wait for `drained` before the next).
 * The first, with the headers, is not corked for the turn: the client waits for it, and the rest
 * of its vendor read (or the whole stream, when the vendor sent it in one piece) must not hold it
 * back. Later events written in one turn of the event loop leave together in one write, not one
 * system call each.
 */
function send(res: Response, frame: string): boolean {
  if (res.headersSent && !res.writableCorked) {
    res.cork();
    setImmediate(() => res.uncork());
  }
  return res.write(frame);
}

/** The client's socket took what was written, or is gone (then at once: its 'close' may have passed). */
const drained = async (res: Response) => {
  if (!res.destroyed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
};

/** An open stream slot of this replica for the project, or 429 naming which bound is full. */
function takeStreamSlot({ streams, settings }: Gateway, tenant: Tenant): () => void {
  const release = streams.tryAcquire(tenant.projectId);
  if (release) return release;
  const projectFull = streams.holding(tenant.projectId) >= settings.gatewayMaxStreamsPerProject;
  throw errors.rateLimited(
    projectFull ? 'Too many open streams for this project' : 'This replica has no stream free',
    1,
  );
}

/**
 * A streamed answer under the gateway's rules, whichever API it speaks: the replica's and the
 * project's stream caps, nothing sent before the vendor's first event (so retries and fallbacks
 * apply until then), the API's error event for a failure after it, usage logged in every case (a
 * client that leaves included: its leaving stops the vendor call), the time limit, and the cost as
 * the `x-llm-cost-usd` trailer.
 */
export async function relayVendorStream<E, S extends RelayedStream<E>>(
  gateway: Gateway,
  tenant: Tenant,
  res: Response,
  route: StreamRoute<E, S>,
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
    const chat = await route.admit();
    try {
      const done = await firstSuccess(
        gateway,
        tenant,
        chat.log,
        chat.models,
        chat.request,
        controller.signal,
        async (client, request) => {
          const stream = await route.open(client, request, controller.signal);
          const events = stream[Symbol.asyncIterator]();
          return { stream, events, first: await events.next() };
        },
      );
      const firstChunkAt = performance.now();
      const { stream, events, first } = done.value;
      const writer = route.writer(stream, chat);
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.setHeader('x-accel-buffering', 'no');
      res.setHeader('x-llm-request-id', chat.log.requestId);
      res.setHeader('trailer', 'x-llm-cost-usd');
      // The headers go out with the first event, in one write.
      leaveInFlight(res);
      const error = await relay(res, stream, writer, events, first, (e) => {
        if (clientLeft) return 'client disconnected';
        return controller.signal.aborted ? 'stream time limit reached' : failureOf(e, done.client.apiKey).message;
      });
      chat.log.record(done.model, done.provider, done.started, {
        tokens: stream.tokens,
        error,
        firstChunkAt,
        errorType: error === null ? undefined : 'stream_interrupted',
        ...writer.detail?.(),
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

/** Sends the events on; null when the stream ended well, else what ended it (told to the client as the API's error event). */
async function relay<E>(
  res: Response,
  stream: RelayedStream<E>,
  writer: StreamWriter<E>,
  events: AsyncIterator<E>,
  first: IteratorResult<E>,
  reason: (error: unknown) => string,
): Promise<string | null> {
  let sent = 0;
  try {
    for (let next = first; !next.done; next = await events.next()) {
      sent++;
      if (!send(res, writer.frame(next.value))) await drained(res);
    }
    const closing = writer.closing?.();
    if (closing) send(res, closing);
    return stream.failure ?? null;
  } catch (error) {
    const message = reason(error);
    if (!res.destroyed) send(res, writer.error(message, sent));
    return message;
  }
}
