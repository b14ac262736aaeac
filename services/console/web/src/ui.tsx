/** Small accessible building blocks: labelled fields with their error beside them, busy buttons, dialogs, pagers. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { CallFailed } from './api';

/** A label, the control it names, and its hint and error below, tied to the control for screen readers. */
function Labelled(props: {
  label: string;
  error?: string;
  hint?: string;
  control(id: string, attributes: { 'aria-invalid'?: true; 'aria-describedby'?: string }): ComponentChildren;
}) {
  const id = useId();
  const { label, error, hint } = props;
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {props.control(id, { 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

export function Field(
  props: { label: string; error?: string; hint?: string } & JSX.InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, error, hint, ...input } = props;
  return (
    <Labelled label={label} error={error} hint={hint} control={(id, aria) => <input id={id} {...aria} {...input} />} />
  );
}

export function TextArea(
  props: { label: string; error?: string; hint?: string } & JSX.TextareaHTMLAttributes<HTMLTextAreaElement>,
) {
  const { label, error, hint, ...area } = props;
  return (
    <Labelled
      label={label}
      error={error}
      hint={hint}
      control={(id, aria) => <textarea id={id} {...aria} {...area} />}
    />
  );
}

export function Select(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The words a person reads for a failed call. */
export function messageOf(error: unknown): string {
  if (error instanceof CallFailed) {
    if (error.status === 429) return 'Too many attempts. Wait a minute and try again.';
    if (error.status === 403) return `Not allowed: ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? `Something went wrong: ${error.message}` : 'Something went wrong.';
}

export function Notice(props: { kind: 'error' | 'success' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

export function Busy(
  props: { busy: boolean; children: ComponentChildren } & JSX.ButtonHTMLAttributes<HTMLButtonElement>,
) {
  const { busy, children, ...button } = props;
  return (
    <button aria-busy={busy} disabled={busy || button.disabled} {...button}>
      {busy ? 'Working…' : children}
    </button>
  );
}

/** A modal dialog (the native one: focus is trapped and Escape closes it). */
export function Dialog(props: { title: string; open: boolean; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.open && props.children}
    </dialog>
  );
}

export function CopyButton(props: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        await navigator.clipboard?.writeText(props.text).catch(() => undefined);
        setCopied(true);
      }}
    >
      {copied ? 'Copied' : props.label}
    </button>
  );
}

/** Where a pager can go from the page shown, and what going there does. */
export interface PagerMoves {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}

/**
 * Previous and next page buttons under a list, offset-paged (`offsetMoves`) or cursor-paged
 * (`useCursorPages`), with `position` between them when the list does not show it elsewhere.
 */
export function Pager(props: PagerMoves & { label: string; position?: string }) {
  return (
    <nav class="pager" aria-label={`Pages of ${props.label}`}>
      <button type="button" disabled={!props.hasPrevious} onClick={props.onPrevious}>
        Previous page
      </button>
      {props.position !== undefined && <span>{props.position}</span>}
      <button type="button" disabled={!props.hasNext} onClick={props.onNext}>
        Next page
      </button>
    </nav>
  );
}

/** The moves over an offset-paged list that reports its total; while the total is unknown there is no next page. */
export function offsetMoves(
  offset: number,
  pageSize: number,
  total: number | undefined,
  onOffset: (offset: number) => void,
): PagerMoves {
  return {
    hasPrevious: offset > 0,
    hasNext: total !== undefined && offset + pageSize < total,
    onPrevious: () => onOffset(Math.max(0, offset - pageSize)),
    onNext: () => onOffset(offset + pageSize),
  };
}

/** Where the page at `offset` stands in its list: "1–25 of 27", "None" when empty, nothing while the total is unknown. */
export function pageRange(offset: number, pageSize: number, total: number | undefined): string {
  if (total === undefined) return '';
  if (total === 0) return 'None';
  const count = (n: number) => n.toLocaleString('en');
  return `${count(offset + 1)}–${count(Math.min(offset + pageSize, total))} of ${count(total)}`;
}

/**
 * A cursor-paged list's place: the cursors of the pages walked through, so that Previous goes back.
 * `cursor` is the page to ask for, `restart` goes back to the first page (when a filter changes).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    restart: () => setCursors([]),
    moves: (nextCursor: string | null | undefined): PagerMoves => ({
      hasPrevious: cursors.length > 0,
      hasNext: Boolean(nextCursor),
      onPrevious: () => setCursors(cursors.slice(0, -1)),
      onNext: () => {
        if (nextCursor) setCursors([...cursors, nextCursor]);
      },
    }),
  };
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
