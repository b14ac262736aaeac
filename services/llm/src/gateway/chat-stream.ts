import type { Response } from 'express';
import type { Tenant } from '@platform/tenancy';
import { tracesLlmContent } from '../telemetry/gen-ai-call';
import type { ChatChunk, ChatStream, ChunkText } from '../vendors/chat-types';
import type { AttemptDetail } from './chat-attempts';
import type { ChatBody } from './chat-request.schema';
import { admitChat, type Gateway } from './chat.service';
import { relayVendorStream, type StreamWriter } from './vendor-stream-relay';

/** Chat Completions' events: `data: <chunk>` each, the usage chunk when asked for, then [DONE]; what they said, for the span. */
function chatWriter(
  stream: ChatStream<ChatChunk | ChunkText>,
  includeUsage: boolean,
  content: AttemptDetail['content'],
): StreamWriter<ChatChunk | ChunkText> {
  let responseModel: string | undefined;
  const finishReasons: string[] = [];
  return {
    frame(chunk) {
      // A chunk passed on as sent tells no finish reason; the one that does is parsed, model and all.
      if (typeof chunk === 'string') return `data: ${chunk}\n\n`;
      responseModel = chunk.model;
      for (const choice of chunk.choices) if (choice.finish_reason) finishReasons.push(choice.finish_reason);
      return `data: ${JSON.stringify(chunk)}\n\n`;
    },
    closing: () => `${includeUsage ? `data: ${JSON.stringify(stream.usageChunk())}\n\n` : ''}data: [DONE]\n\n`,
    error: (message) =>
      `data: ${JSON.stringify({ error: { message, type: 'api_error', code: 'VENDOR_ERROR', param: null } })}\n\n`,
    detail: () => ({ responseModel, finishReasons, ...(content && { content }) }),
  };
}

/**
 * A streamed completion as OpenAI streams it: chat.completion.chunk events, the usage chunk when
 * asked for, then [DONE], under the gateway's stream rules (`relayVendorStream`).
 */
export async function streamChat(gateway: Gateway, tenant: Tenant, body: ChatBody, res: Response): Promise<void> {
  const includeUsage = body.stream_options?.include_usage === true;
  await relayVendorStream(gateway, tenant, res, {
    admit: () => admitChat(gateway, tenant, body),
    open: (client, request, signal): Promise<ChatStream<ChatChunk | ChunkText>> =>
      client.chatStreamAsSent ? client.chatStreamAsSent(request, signal) : client.chatStream(request, signal),
    writer: (stream, chat) =>
      chatWriter(stream, includeUsage, tracesLlmContent(tenant) ? { input: chat.request.messages } : undefined),
  });
}
