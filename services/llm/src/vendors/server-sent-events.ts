import { StringDecoder } from 'node:string_decoder';

export interface ServerSentEvent {
  /** The `event:` field, null when the event names none. */
  event: string | null;
  /** The `data:` lines, joined with newlines. */
  data: string;
}

/** One event's lines (without the blank line that ends it), or null for an event with no data. */
function parseEvent(block: string): ServerSentEvent | null {
  // Most events are one `data: ` line: read without splitting into lines.
  if (block.startsWith('data: ') && !block.includes('\n')) return { event: null, data: block.slice(6) };
  let event: string | null = null;
  let data: string | null = null;
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === null ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
  }
  return data === null ? null : { event, data };
}

/** `\r\n` and `\r` as `\n`; a `\r` at the very end waits, as the next chunk may start with its `\n`. */
function normalizeLineEnds(text: string): string {
  const held = text.endsWith('\r') ? 1 : 0;
  return text.slice(0, text.length - held).replace(/\r\n?/g, '\n') + (held ? '\r' : '');
}

/**
 * The events of a `text/event-stream` body as they arrive (the event-stream format: `\n`, `\r\n`
 * or `\r` line ends, comments, multi-line data). Read straight off the socket's chunks: the
 * vendor SDKs' own readers go through web streams and several generators per event, which is
 * most of what relaying a token costs.
 */
export async function* serverSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const bytes of body) {
    pending += decoder.write(bytes as Buffer);
    if (pending.includes('\r')) pending = normalizeLineEnds(pending);
    let end: number;
    while ((end = pending.indexOf('\n\n')) !== -1) {
      const parsed = parseEvent(pending.slice(0, end));
      pending = pending.slice(end + 2);
      if (parsed) yield parsed;
    }
  }
  pending += decoder.end();
  const last = parseEvent(pending.replace(/\r\n?/g, '\n'));
  if (last) yield last;
}
