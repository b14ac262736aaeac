/** A plain textarea for JSON with its live verdict beside it, announced politely as the person types. */
import { useId } from 'preact/hooks';

export type JsonVerdict = { ok: true } | { ok: false; message: string };

export function JsonField(props: {
  label: string;
  value: string;
  onInput(value: string): void;
  verdict: JsonVerdict;
  okText: string;
  /** The service's own refusal of the last save, kept until the text changes. */
  serverError?: string;
  rows?: number;
  disabled?: boolean;
}) {
  const id = useId();
  const invalid = !props.verdict.ok || props.serverError !== undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        class="code"
        rows={props.rows ?? 10}
        spellcheck={false}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={`${id}-verdict`}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <small id={`${id}-verdict`} class={invalid ? 'error' : 'hint'} aria-live="polite" data-testid="json-verdict">
        {props.serverError ?? (props.verdict.ok ? props.okText : props.verdict.message)}
      </small>
    </div>
  );
}

/** Whether a text is a JSON document (any value), in words. */
export function checkJson(text: string): JsonVerdict {
  try {
    JSON.parse(text);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
}

/** Whether a text is a JSON object (metadata), in words. */
export function checkJsonObject(text: string): JsonVerdict {
  const verdict = checkJson(text);
  if (!verdict.ok) return verdict;
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ok: true }
    : { ok: false, message: 'Must be a JSON object, such as {"key": "value"}.' };
}
