import type Anthropic from '@anthropic-ai/sdk';
import {
  STRUCTURED_OUTPUT_TOOL,
  StructuredOutputError,
  structuredAnswer,
  structuredFormatOf,
  withStructuredOutput,
  type StructuredFormat,
} from './structured-output';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, tags: { type: 'array' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};
const format: StructuredFormat = { kind: 'json_schema', name: 'weather', schema, strict: true };

describe('structuredFormatOf', () => {
  it("when given Chat's response_format or Responses' text.format, then both read as the same format", () => {
    const chat = structuredFormatOf({ type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } });
    const responses = structuredFormatOf({ type: 'json_schema', name: 'weather', schema, strict: true });
    expect(chat).toEqual(format);
    expect(responses).toEqual(format);
    expect(structuredFormatOf({ type: 'json_object' })).toEqual({ kind: 'json_object' });
    expect(structuredFormatOf({ type: 'text' })).toBeUndefined();
    expect(structuredFormatOf(undefined)).toBeUndefined();
  });
});

describe('withStructuredOutput', () => {
  const request: Anthropic.MessageCreateParams = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] };

  it('when the request has no tools, then the answer tool is added and forced', () => {
    const out = withStructuredOutput(request, format);
    expect(out.tool_choice).toEqual({ type: 'tool', name: STRUCTURED_OUTPUT_TOOL });
    expect(out.tools).toEqual([expect.objectContaining({ name: STRUCTURED_OUTPUT_TOOL, input_schema: schema })]);
  });

  it("when the request has tools of its own, then one must be called (its own or the answer); 'none' forces the answer", () => {
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const } }];
    expect(withStructuredOutput({ ...request, tools }, format).tool_choice).toEqual({ type: 'any' });
    expect(withStructuredOutput({ ...request, tools, tool_choice: { type: 'none' } }, format).tool_choice).toEqual({
      type: 'tool',
      name: STRUCTURED_OUTPUT_TOOL,
    });
  });
});

describe('structuredAnswer', () => {
  it('when the answer fits the schema, then it comes back as JSON text', () => {
    expect(structuredAnswer(format, { city: 'Paris', celsius: 21 })).toBe('{"city":"Paris","celsius":21}');
    expect(structuredAnswer(format, '{"city": "Paris", "celsius": 21, "tags": []}')).toBe(
      '{"city":"Paris","celsius":21,"tags":[]}',
    );
  });

  it.each([
    ['not JSON', '{"city": "Par'],
    ['not an object', '[1]'],
    ['a required property missing', { city: 'Paris' }],
    ['a property of the wrong type', { city: 'Paris', celsius: '21' }],
    ['a property the closed schema does not list', { city: 'Paris', celsius: 21, wind: 3 }],
  ])('when the answer is %s, then it is refused', (_what, input) => {
    expect(() => structuredAnswer(format, input)).toThrow(StructuredOutputError);
  });
});
