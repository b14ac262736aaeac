import { carriesOutput, chunkTextAsSent } from './openai-chunk-text';

const chunk = (fields: object) =>
  JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', ...fields });
const delta = (content: unknown, finish: string | null = null) => ({
  choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: finish }],
});

describe('OpenAI chunks passed on as sent', () => {
  it('when a chunk only carries a delta, then it is passed on as sent, and counts as output when it has text', () => {
    const text = chunk(delta('hi'));
    expect(chunkTextAsSent(text)).toBe(text);
    expect(carriesOutput(text)).toBe(true);
    expect(carriesOutput(chunk(delta('')))).toBe(false);
    expect(carriesOutput(chunk({ choices: [{ index: 0, delta: { tool_calls: [] }, finish_reason: null }] }))).toBe(
      true,
    );
  });

  it('when a chunk has usage null, then it is passed on without it, as when usage is not asked for', () => {
    const text = chunk({ ...delta('hi'), usage: null });
    expect(JSON.parse(chunkTextAsSent(text)!)).toEqual(JSON.parse(chunk(delta('hi'))));
  });

  it('when a chunk tells a finish reason, usage or an error, or has no choices, then it is parsed', () => {
    expect(chunkTextAsSent(chunk(delta(null, 'stop')))).toBeNull();
    expect(chunkTextAsSent(chunk({ choices: [], usage: { prompt_tokens: 1 } }))).toBeNull();
    expect(chunkTextAsSent(chunk({ ...delta('a'), usage: { prompt_tokens: 1 } }))).toBeNull();
    expect(chunkTextAsSent(JSON.stringify({ error: { message: 'boom' } }))).toBeNull();
    expect(chunkTextAsSent(chunk({ choices: [] }))).toBeNull();
  });

  it('when a finish reason is written in another form, then it is parsed, never passed on unread', () => {
    const spaced = chunk(delta('a')).replace('"finish_reason":null', '"finish_reason": "stop"');
    expect(chunkTextAsSent(spaced)).toBeNull();
    const twoChoices = chunk({
      choices: [
        { index: 0, delta: { content: 'a' }, finish_reason: null },
        { index: 1, delta: {}, finish_reason: 'stop' },
      ],
    });
    expect(chunkTextAsSent(twoChoices)).toBeNull();
  });

  it('when text quotes the keys the gateway reads, then the chunk is still passed on as sent', () => {
    const text = chunk(delta('say "finish_reason":"stop", "usage" and "error"'));
    expect(chunkTextAsSent(text)).toBe(text);
  });
});
