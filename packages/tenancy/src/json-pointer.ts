/**
 * The property names and indexes of a JSON pointer (`/items/0/a~1b` -> items, 0, a/b), as ajv
 * reports where a value failed. Imports nothing, so validation threads can load it alone.
 */
export function pointerParts(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}
