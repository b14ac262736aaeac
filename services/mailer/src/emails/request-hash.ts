import { sha256Hex } from '@platform/tenancy';

/** JSON with object keys sorted at every level, so equal requests hash equal whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The fingerprint an Idempotency-Key is bound to: the validated request, not its spelling. */
export function requestHash(input: unknown): string {
  return sha256Hex(JSON.stringify(canonical(input)));
}
