import { AppError, parse } from '@platform/tenancy';
import { chatRequestSchema, parseChatBody } from './chat-request.schema';

const user = { role: 'user', content: 'hello' };

/** The 400's details of a body that must be refused. */
function problemsOf(body: unknown): { path: string; message: string }[] {
  try {
    parseChatBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).details ?? [];
  }
  throw new Error('the body was accepted');
}

describe('chat request body', () => {
  it('when a body is valid, then it comes back without unknown fields, at every level, and with trimmed model names', () => {
    const body = parseChatBody({
      model: ' gpt-4o ',
      messages: [{ ...user, extra: 1 }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', keep: true } }, extra: 1 }],
      stream_options: { include_usage: true, extra: 1 },
      fallbacks: [' claude-3-5-haiku-latest'],
      unknown: { nested: true },
    });
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [user],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', keep: true } } }],
      stream_options: { include_usage: true },
      fallbacks: ['claude-3-5-haiku-latest'],
    });
  });

  it('when a body carries prototype names, then they are dropped and no prototype changes', () => {
    const body = parseChatBody(
      JSON.parse(
        '{"model":"gpt-4o","messages":[{"role":"user","content":"hi","__proto__":{"x":1}}],"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      ),
    );
    expect(Object.keys(body)).toEqual(['model', 'messages']);
    expect(Object.keys(body.messages[0])).toEqual(['role', 'content']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('when a message breaks its role rules, then each break is reported at its path', () => {
    expect(
      problemsOf({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: null },
          { role: 'user', content: 'x', tool_call_id: 'c', tool_calls: [] },
          { role: 'tool', content: 'result' },
        ],
      }),
    ).toEqual([
      { path: 'messages.0.content', message: 'must be string,array' },
      { path: 'messages.1.tool_calls', message: 'is not allowed here' },
      { path: 'messages.1.tool_call_id', message: 'is not allowed here' },
      { path: 'messages.2.tool_call_id', message: 'is required' },
    ]);
  });

  it('when the assistant calls tools, then its content may be null and the tool answers by id', () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const messages = [
      user,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: '42' },
    ];
    expect(parseChatBody({ model: 'gpt-4o', messages }).messages).toEqual(messages);
  });

  it('when a content part lacks or carries a field of another type, then that is reported', () => {
    expect(
      problemsOf({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: [{ type: 'text' }, { type: 'image_url', text: 'x', image_url: { url: 'u' } }] },
        ],
      }),
    ).toEqual([
      { path: 'messages.0.content.0.text', message: 'is required' },
      { path: 'messages.0.content.1.text', message: 'is not allowed here' },
    ]);
  });

  it('when many fields are wrong, then every problem is reported, not only the first', () => {
    const paths = problemsOf({
      model: '  ',
      messages: [],
      temperature: 3,
      stop: ['a', 'b', 'c', 'd', 'e'],
      n: 1.5,
      tool_choice: 'maybe',
      response_format: { type: 'json_schema' },
    }).map((problem) => problem.path);
    expect(paths).toEqual([
      'model',
      'messages',
      'temperature',
      'stop',
      'n',
      'tool_choice',
      'response_format.json_schema',
    ]);
  });

  it('when a field may take several forms and takes none, then that is one problem', () => {
    expect(problemsOf({ model: 'gpt-4o', messages: [user], tool_choice: { type: 'function' } })).toEqual([
      { path: 'tool_choice', message: 'matches none of the forms it may take' },
    ]);
    const choice = { type: 'function', function: { name: 'f' } };
    expect(
      parseChatBody({ model: 'gpt-4o', messages: [user], tool_choice: { ...choice, extra: 1 } }).tool_choice,
    ).toEqual(choice);
  });

  it('when the body is missing or not an object, then the 400 says so', () => {
    for (const body of [undefined, null]) expect(problemsOf(body).map((p) => p.path)).toEqual(['model', 'messages']);
    for (const body of [[], 'text', 42])
      expect(problemsOf(body)).toEqual([{ path: '(root)', message: 'must be object' }]);
  });

  it('when a name, id or user is empty, then it is refused; message text may be empty', () => {
    const call = { id: '', type: 'function', function: { name: 'f', arguments: '' } };
    expect(
      problemsOf({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: '', name: '' },
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'tool', tool_call_id: '', content: '' },
        ],
        user: '',
        stop: [''],
      }).map((problem) => problem.path),
    ).toEqual(['messages.0.name', 'messages.1.tool_calls.0.id', 'messages.2.tool_call_id', 'stop.0', 'user']);
  });

  it('when a list is longer than allowed, then it is refused', () => {
    const messages = Array.from({ length: 2001 }, () => user);
    expect(problemsOf({ model: 'gpt-4o', messages })).toEqual([
      { path: 'messages', message: 'must NOT have more than 2000 items' },
    ]);
  });

  it('when a seed is past the exact integers, then it is refused; the largest exact one passes', () => {
    const body = (seed: number) => ({ model: 'gpt-4o', messages: [user], seed });
    expect(problemsOf(body(2 ** 53)).map((p) => p.path)).toEqual(['seed']);
    expect(problemsOf(body(-(2 ** 53))).map((p) => p.path)).toEqual(['seed']);
    expect(parseChatBody(body(Number.MAX_SAFE_INTEGER)).seed).toBe(Number.MAX_SAFE_INTEGER);
  });
  it('when messages are text only, then they are checked as the whole schema checks them: same body, same problems', () => {
    const outcome = (check: () => unknown) => {
      try {
        return { body: check() };
      } catch (error) {
        return { problems: (error as AppError).details };
      }
    };
    const contents = [
      'hi',
      '',
      null,
      7,
      true,
      {},
      [],
      [{ type: 'text', text: 'a' }],
      [{ type: 'text' }],
      [{ type: 'x' }],
    ];
    for (const role of ['system', 'developer', 'user']) {
      for (const content of [...contents, undefined]) {
        const body = { model: 'gpt-4o', messages: [user, { role, ...(content === undefined ? {} : { content }) }] };
        const whole = outcome(() => parse(chatRequestSchema, structuredClone(body)));
        expect(outcome(() => parseChatBody(structuredClone(body)))).toEqual(whole);
      }
    }
  });
});
