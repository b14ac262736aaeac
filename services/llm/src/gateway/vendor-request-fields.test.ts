import { AppError, parse } from '@platform/tenancy';
import {
  boolean,
  integer,
  listOf,
  nullable,
  number,
  stringOrArray,
  vendorRequest,
  word,
} from './vendor-request-fields';

const body = vendorRequest({
  temperature: nullable(number(0, 2), 'number'),
  max_tokens: nullable(integer(1, 100), 'integer'),
  stream: boolean(),
  stop: stringOrArray(word(10), listOf(word(10), 2), true),
});

/** The 400's details of a body that must be refused. */
function problemsOf(input: unknown): { path: string; message: string }[] {
  try {
    parse(body, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).details ?? [];
  }
  throw new Error('the body was accepted');
}

describe('vendor request fields', () => {
  it('when a number or a boolean comes as a string, then it is refused, not converted', () => {
    expect(problemsOf({ temperature: '0.5', max_tokens: '5', stream: 'true' })).toEqual([
      { path: 'temperature', message: 'must be number,null' },
      { path: 'max_tokens', message: 'must be integer,null' },
      { path: 'stream', message: 'must be boolean' },
    ]);
  });

  it('when values are in range, then they pass as sent, null included', () => {
    expect(parse(body, { temperature: null, max_tokens: 5, stream: false, stop: null })).toEqual({
      temperature: null,
      max_tokens: 5,
      stream: false,
      stop: null,
    });
  });

  it('when a value is past a limit or of neither type, then the problem is told in JSON Schema words', () => {
    expect(problemsOf({ temperature: 3, max_tokens: 1.5, stop: ['a', 'b', 'c'] })).toEqual([
      { path: 'temperature', message: 'must be <= 2' },
      { path: 'max_tokens', message: 'must be integer,null' },
      { path: 'stop', message: 'must NOT have more than 2 items' },
    ]);
    expect(problemsOf({ stop: 5 })).toEqual([{ path: 'stop', message: 'must be string,array,null' }]);
  });
});
