import type { ChunkText } from './chat-types';

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/**
 * An OpenAI chunk's `data` as it may be passed on unparsed: when it has choices, and tells no
 * finish reason, no usage and no error (each of which the gateway reads), with `"usage":null`
 * left out as when usage is not asked for. Else null: the chunk is parsed. A quote in a string
 * value is escaped in JSON, so these keys cannot be matched inside one; a form not matched
 * exactly (spaces, another order) is parsed, never passed on wrongly.
 */
export function chunkTextAsSent(data: string): ChunkText | null {
  if (!data.includes('"choices":[{') || data.includes('"error"')) return null;
  if (occurrences(data, '"finish_reason"') !== occurrences(data, '"finish_reason":null')) return null;
  const usages = occurrences(data, '"usage"');
  if (usages === 0) return data;
  return usages === occurrences(data, ',"usage":null') ? data.replaceAll(',"usage":null', '') : null;
}

const OUTPUT = /"content":"[^"]|"tool_calls"/;

/** Whether a chunk passed on unparsed carries output (text or a tool call): a token, until OpenAI tells its usage. */
export const carriesOutput = (text: ChunkText): boolean => OUTPUT.test(text);
