/** ISO 8601 UTC with milliseconds (RESOLUTIONS 1); null stays null. */
export function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
