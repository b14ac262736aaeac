/**
 * The property names and indexes of a JSON pointer (`/items/0/a~1b` -> items, 0, a/b), as ajv
 * reports where a value failed.
 */
export function pointerParts(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}
