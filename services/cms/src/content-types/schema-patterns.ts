/** A regex a tenant schema carries, with where it is (`schema.properties.code.pattern`). */
export interface SchemaPattern {
  pattern: string;
  path: string;
}

interface Node {
  value: object;
  key?: string;
  parent?: Node;
}

/** Path segments this long are shortened: a `patternProperties` name is the whole pattern. */
const MAX_SEGMENT = 60;
/** Deeper paths keep their first and last segments only. */
const MAX_SEGMENTS = 16;

function pathOf(node: Node, ...last: string[]): string {
  const segments = [...last].reverse();
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) segments.push(at.key);
  segments.reverse();
  const kept = segments.length > MAX_SEGMENTS ? [...segments.slice(0, 4), '...', ...segments.slice(-11)] : segments;
  const shown = kept.map((s) => (s.length > MAX_SEGMENT ? `${s.slice(0, MAX_SEGMENT)}...` : s));
  return ['schema', ...shown].join('.');
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Every regex the schema can make ajv compile, each once (at its first place): every `pattern`
 * string and every `patternProperties` name anywhere in the document, not only where those
 * keywords apply, because `$ref` can point ajv at any part of it (`#/enum/0`, an unknown
 * keyword). Iterative: the tenant chooses how deep the document nests.
 */
export function patternsOf(schema: Record<string, unknown>): SchemaPattern[] {
  const found = new Map<string, string>();
  const record = (pattern: string, path: () => string) => {
    if (!found.has(pattern)) found.set(pattern, path());
  };
  const stack: Node[] = [{ value: schema }];
  while (stack.length) {
    const node = stack.pop()!;
    const entries = Object.entries(node.value);
    for (const [key, value] of entries) {
      if (key === 'pattern' && typeof value === 'string') record(value, () => pathOf(node, key));
      if (key === 'patternProperties' && isObject(value) && !Array.isArray(value)) {
        for (const name of Object.keys(value)) record(name, () => pathOf(node, key, name));
      }
    }
    // Reversed onto the stack, so that children are visited in the document's order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i];
      if (isObject(value)) stack.push({ value, key, parent: node });
    }
  }
  return [...found].map(([pattern, path]) => ({ pattern, path }));
}
