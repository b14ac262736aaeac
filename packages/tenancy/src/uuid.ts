const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a caller-supplied id can be a row id (an id that cannot is a 404 without a query). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
