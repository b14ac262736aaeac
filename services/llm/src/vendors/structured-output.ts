import Anthropic from '@anthropic-ai/sdk';

/**
 * Structured output for a vendor without OpenAI's `response_format` (Anthropic): the schema
 * becomes the input schema of one forced tool, and the tool's input is the answer, as JSON text.
 * Shared by Chat Completions (`response_format`) and the Responses API (`text.format`).
 */
export type StructuredFormat =
  | { kind: 'json_object' }
  | { kind: 'json_schema'; name: string; description?: string; schema: Record<string, unknown>; strict: boolean };

/** The tool that carries the answer; a name no client tool is likely to take. */
export const STRUCTURED_OUTPUT_TOOL = 'structured_output';

interface FormatInput {
  type?: string;
  /** Chat Completions: `{type: 'json_schema', json_schema: {name, schema, strict}}`. */
  json_schema?: { name?: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
  /** Responses (`text.format`): `{type: 'json_schema', name, schema, strict}`. */
  name?: string;
  description?: string;
  schema?: Record<string, unknown>;
  strict?: boolean | null;
}

/** Chat's `response_format` or Responses' `text.format` as a structured format; undefined for plain text. */
export function structuredFormatOf(format: FormatInput | null | undefined): StructuredFormat | undefined {
  if (format?.type === 'json_object') return { kind: 'json_object' };
  if (format?.type !== 'json_schema') return undefined;
  const spec = format.json_schema ?? format;
  return {
    kind: 'json_schema',
    name: spec.name ?? 'response',
    ...(spec.description ? { description: spec.description } : {}),
    schema: spec.schema ?? { type: 'object' },
    strict: spec.strict === true,
  };
}

/** The forced tool whose input is the answer. */
export function structuredOutputTool(format: StructuredFormat): Anthropic.Tool {
  const schema = format.kind === 'json_schema' ? format.schema : { type: 'object' };
  const about =
    format.kind === 'json_schema'
      ? `Answer with ${format.name}${format.description ? `: ${format.description}` : ''}.`
      : 'Answer with a JSON object.';
  return {
    name: STRUCTURED_OUTPUT_TOOL,
    description: `${about} Always answer through this tool, never in prose.`,
    input_schema: (schema.type === 'object' ? schema : { type: 'object', ...schema }) as Anthropic.Tool.InputSchema,
  };
}

/**
 * An Anthropic request that answers in the format: the answer tool added to the request's tools,
 * and forced, unless the request has tools of its own that it may call (then a tool must be
 * called: one of its own, or the answer).
 */
export function withStructuredOutput(
  request: Anthropic.MessageCreateParams,
  format: StructuredFormat,
): Anthropic.MessageCreateParams {
  const own = request.tools ?? [];
  const choice = request.tool_choice;
  const ownMayBeCalled = own.length > 0 && choice?.type !== 'none';
  const toolChoice: Anthropic.ToolChoice =
    ownMayBeCalled && choice?.type === 'tool'
      ? choice
      : ownMayBeCalled
        ? { type: 'any' }
        : { type: 'tool', name: STRUCTURED_OUTPUT_TOOL };
  return { ...request, tools: [...own, structuredOutputTool(format)], tool_choice: toolChoice };
}

/** The model's answer did not come in the asked format: a vendor failure (500 VENDOR_ERROR), not retried. */
export class StructuredOutputError extends Anthropic.AnthropicError {
  constructor(reason: string) {
    super(`The model's answer is not valid for the response format: ${reason}`);
  }
}

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function matchesType(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = typeOf(value);
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

/**
 * The checks the vendor's forced tool use does not promise, on the answer's outer level: an
 * object, with every `required` property, each listed property of its declared type, and no
 * other property when the schema closes it.
 */
function problemOf(value: unknown, schema: Record<string, unknown>): string | undefined {
  if (typeOf(value) !== 'object') return 'not a JSON object';
  const record = value as Record<string, unknown>;
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (!(name in record)) return `property ${name} is missing`;
  }
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const [name, item] of Object.entries(record)) {
    const declared = properties[name];
    if (!declared) {
      if (schema.additionalProperties === false) return `property ${name} is not in the schema`;
      continue;
    }
    if (declared.type !== undefined && !matchesType(item, declared.type))
      return `property ${name} is not ${String(declared.type)}`;
  }
  return undefined;
}

/** The answer as JSON text from the answer tool's input (an object, or its JSON text as streamed); throws StructuredOutputError. */
export function structuredAnswer(format: StructuredFormat, input: unknown): string {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input || 'null');
    } catch {
      throw new StructuredOutputError('not JSON');
    }
  }
  const problem = problemOf(value, format.kind === 'json_schema' ? format.schema : {});
  if (problem) throw new StructuredOutputError(problem);
  return JSON.stringify(value);
}
