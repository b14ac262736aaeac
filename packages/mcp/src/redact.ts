/**
 * Fields no tool result may carry, whatever a service answers: the services never return them,
 * this is the second line.
 */
const SECRET_FIELDS =
  /^(secret_?key|secret|password|password_?hash|api_?secret|webhook_?secret|private_?key|access_?token|refresh_?token|token|client_?secret|stripe_?secret_?key)$/i;

export const REDACTED = '[redacted]';

/** A copy of `value` with every secret-named field's value replaced. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_FIELDS.test(key) && inner !== null && inner !== undefined && typeof inner !== 'boolean'
        ? REDACTED
        : withoutSecrets(inner),
    ]),
  );
}
