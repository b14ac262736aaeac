/**
 * Tags group a document's operations by feature, for the docs page and for generated clients.
 * An operation is tagged by default, so that one added without a thought for tags is grouped too.
 */

/** A feature's tag: its name, what it covers, and the path prefixes whose operations it takes by default. */
export interface OpenApiTag {
  name: string;
  description: string;
  /** Path templates (without /v1) whose operations, and those below them, carry this tag unless they name their own. */
  paths?: string[];
}

const covers = (prefix: string, path: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * The tag of an operation that names none: the declared tag with the longest prefix of its path, else
 * the path's first segment (`/content-types/{id}` is `content-types`).
 */
export function defaultTag(path: string, tags: OpenApiTag[]): string {
  let best: { name: string; length: number } | undefined;
  for (const tag of tags)
    for (const prefix of tag.paths ?? [])
      if (covers(prefix, path) && (!best || prefix.length > best.length))
        best = { name: tag.name, length: prefix.length };
  if (best) return best.name;
  return firstSegment(path).replace(/^\.+/, '') || 'root';
}

const firstSegment = (path: string) => path.split('/').find(Boolean) ?? '';

/**
 * The document's tag list: each tag its operations use, declared ones in their order first; a tag that
 * was not declared is described by the paths it covers.
 */
export function documentTags(
  used: { tag: string; path: string }[],
  declared: OpenApiTag[],
): { name: string; description: string }[] {
  const names = [...new Set(used.map((u) => u.tag))];
  const order = (name: string) => {
    const at = declared.findIndex((tag) => tag.name === name);
    return at === -1 ? declared.length + names.indexOf(name) : at;
  };
  return names
    .sort((a, b) => order(a) - order(b))
    .map((name) => {
      const description =
        declared.find((tag) => tag.name === name)?.description ??
        `Operations under ${[...new Set(used.filter((u) => u.tag === name).map((u) => `/v1/${firstSegment(u.path)}`))].join(', ')}`;
      return { name, description };
    });
}
