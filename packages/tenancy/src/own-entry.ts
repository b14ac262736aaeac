/**
 * A lookup-table entry for a caller-supplied key: own properties only, so names such as
 * `constructor`, `toString` or `__proto__` find nothing instead of Object.prototype's members.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
