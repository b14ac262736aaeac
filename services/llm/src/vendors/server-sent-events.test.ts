import { serverSentEvents, type ServerSentEvent } from './server-sent-events';

/** The events read from a body that arrives in these pieces. */
async function eventsOf(...pieces: (string | Buffer)[]): Promise<ServerSentEvent[]> {
  async function* body() {
    for (const piece of pieces) yield typeof piece === 'string' ? Buffer.from(piece) : piece;
  }
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body())) events.push(event);
  return events;
}

describe('server-sent events', () => {
  it('when events arrive whole, then each data line is one event', async () => {
    expect(await eventsOf('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: null, data: '{"a":1}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('when an event is split across reads, anywhere, then it is read whole once', async () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(await eventsOf(text.slice(0, cut), text.slice(cut))).toEqual([
        { event: 'message_start', data: '{"type":"message_start"}' },
      ]);
    }
  });

  it('when lines end with \\r\\n or \\r, even with the \\r\\n split across reads, then the events are the same', async () => {
    expect(await eventsOf('data: one\r\n', '\r\ndata: two\r', '\r')).toEqual([
      { event: null, data: 'one' },
      { event: null, data: 'two' },
    ]);
    expect(await eventsOf('data: a\r', '\n', '\r\n')).toEqual([{ event: null, data: 'a' }]);
  });

  it('when an event has several data lines, comments and no space after the colon, then they are joined as the format says', async () => {
    expect(await eventsOf(': keep-alive\n\ndata:first\ndata: second\nid: 7\n\n')).toEqual([
      { event: null, data: 'first\nsecond' },
    ]);
  });

  it('when a multi-byte character is split between reads, then it is decoded whole', async () => {
    const bytes = Buffer.from('data: "héllo 👋"\n\n');
    const cut = bytes.indexOf(0xf0) + 2;
    expect(await eventsOf(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([{ event: null, data: '"héllo 👋"' }]);
  });

  it('when the body ends without the blank line, then its last event is still read', async () => {
    expect(await eventsOf('data: last')).toEqual([{ event: null, data: 'last' }]);
  });
});
