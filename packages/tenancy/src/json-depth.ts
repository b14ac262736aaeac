/**
 * How deeply objects and arrays may nest in JSON a caller gives us (a request body, a CMS
 * content document), counted from its root: `{"a":{"b":1}}` is 2 levels. Serialising for the
 * database or a worker thread, and validating against a schema, recurse once per level; far
 * past this (thousands of levels) they overflow the stack. Deeper input is the caller's 400.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Where `value` first nests objects and arrays deeper than `maxDepth` levels: the path of the
 * first `pathSegments` keys that lead there (`metadata.a`), `(root)` for the value itself, or
 * undefined when it stays within. Iterative, so any depth is measured without overflowing.
 */
export function tooDeepAt(value: unknown, maxDepth = MAX_JSON_DEPTH, pathSegments = 1): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: [object, number, string[]][] = [[value, 1, []]];
  while (stack.length) {
    const [current, depth, path] = stack.pop()!;
    if (depth > maxDepth) return path.join('.') || '(root)';
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const inner = (current as Record<string, unknown>)[key];
      if (inner === null || typeof inner !== 'object') continue;
      stack.push([inner, depth + 1, path.length < pathSegments ? [...path, key] : path]);
    }
  }
  return undefined;
}

/** The problem a too-deep value is refused with, in the `details` of a 400. */
export const tooDeepMessage = (maxDepth = MAX_JSON_DEPTH): string =>
  `nests objects and arrays deeper than ${maxDepth} levels`;
