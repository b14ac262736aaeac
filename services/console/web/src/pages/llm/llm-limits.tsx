/** The project's LLM limits (monthly budget, requests and tokens per minute) with this month's spend, and its default fallbacks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { Fragment } from 'preact';
import { useId, useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice } from '../../ui';
import { usd, whole } from './llm-format';
import type { LlmProject, LlmSchemas } from './llm-frame';

type LimitName = Extract<keyof LlmSchemas['Limits'], 'monthlyBudgetUsd' | 'requestsPerMinute' | 'tokensPerMinute'>;
const LIMITS: { name: LimitName; label: string; step: string }[] = [
  { name: 'monthlyBudgetUsd', label: 'Monthly budget (USD)', step: '0.01' },
  { name: 'requestsPerMinute', label: 'Requests per minute', step: '1' },
  { name: 'tokensPerMinute', label: 'Tokens per minute', step: '1' },
];

const limitText = (name: LimitName, value: number | null) =>
  value === null ? 'no limit' : name === 'monthlyBudgetUsd' ? usd(value) : whole(value);

const textOf = (limits: LlmSchemas['Limits']) =>
  Object.fromEntries(LIMITS.map(({ name }) => [name, limits[name] === null ? '' : String(limits[name])])) as Record<
    LimitName,
    string
  >;

/** The messages of a refused call by field, and the call's own message when no field is named. */
function fieldErrors(error: unknown): { byField: Record<string, string>; general?: string } {
  const byField = error instanceof CallFailed ? error.fieldMessages : {};
  return { byField, general: error && !Object.keys(byField).length ? messageOf(error) : undefined };
}

export function Limits(props: { project: LlmProject }) {
  const { client, projectId, canWrite } = props.project;
  const cache = useQueryClient();
  const limits = useQuery({
    queryKey: ['llm-limits', projectId],
    queryFn: () => unwrap(client.getLimits()),
  });
  // What the person typed; until then the stored limits. Kept when a save fails.
  const [draft, setDraft] = useState<Record<LimitName, string>>();
  const [invalid, setInvalid] = useState<LimitName>();
  const save = useMutation({
    mutationFn: (body: Record<LimitName, number | null>) => unwrap(client.putLimits({ body })),
    onSuccess: (saved) => {
      cache.setQueryData(['llm-limits', projectId], saved);
      setDraft(undefined);
    },
  });
  const shown = draft ?? (limits.data ? textOf(limits.data) : undefined);
  const { byField, general } = fieldErrors(save.error);
  return (
    <section aria-labelledby="limits-title">
      <h2 id="limits-title">Limits and monthly budget</h2>
      {limits.error && <Notice kind="error">{messageOf(limits.error)}</Notice>}
      {limits.isLoading && <p role="status">Loading…</p>}
      {limits.data && (
        <dl class="pairs" data-testid="llm-spend">
          <dt>Spent this month</dt>
          <dd>{usd(limits.data.spentThisMonthUsd)}</dd>
          <dt>Held by requests in flight</dt>
          <dd>{usd(limits.data.reservedUsd)}</dd>
          {!canWrite &&
            LIMITS.map(({ name, label }) => (
              <Fragment key={name}>
                <dt>{label}</dt>
                <dd>{limitText(name, limits.data[name])}</dd>
              </Fragment>
            ))}
        </dl>
      )}
      {canWrite && shown && (
        <form
          class="inline"
          aria-label="Limits"
          onSubmit={(event) => {
            event.preventDefault();
            const body = {} as Record<LimitName, number | null>;
            for (const { name } of LIMITS) {
              const text = shown[name].trim();
              const value = text === '' ? null : Number(text);
              if (value !== null && !Number.isFinite(value)) return setInvalid(name);
              body[name] = value;
            }
            setInvalid(undefined);
            save.mutate(body);
          }}
        >
          {LIMITS.map(({ name, label, step }) => (
            <Field
              key={name}
              label={label}
              type="number"
              min="0"
              step={step}
              inputMode="decimal"
              value={shown[name]}
              hint="Empty: no limit"
              onInput={(event) => setDraft({ ...shown, [name]: event.currentTarget.value })}
              error={invalid === name ? 'Enter a number, or leave it empty for no limit' : byField[name]}
            />
          ))}
          <Busy busy={save.isPending} type="submit">
            Save limits
          </Busy>
        </form>
      )}
      {general && <Notice kind="error">{general}</Notice>}
      {save.isSuccess && !draft && <Notice kind="success">Limits saved.</Notice>}
    </section>
  );
}

export function Fallbacks(props: { project: LlmProject }) {
  const { client, projectId, canWrite } = props.project;
  const cache = useQueryClient();
  const fallbacks = useQuery({
    queryKey: ['llm-fallbacks', projectId],
    queryFn: () => unwrap(client.getFallbacks()),
  });
  const models = useQuery({
    queryKey: ['llm-models', projectId],
    queryFn: () => unwrap(client.getModels()),
  });
  const [draft, setDraft] = useState<string>();
  const save = useMutation({
    mutationFn: (list: string[]) => unwrap(client.putFallbacks({ body: { fallbacks: list } })),
    onSuccess: (saved) => {
      cache.setQueryData(['llm-fallbacks', projectId], saved);
      setDraft(undefined);
    },
  });
  const stored = fallbacks.data?.fallbacks ?? [];
  const text = draft ?? stored.join('\n');
  const details = save.error instanceof CallFailed ? (save.error.envelope?.error.details ?? []) : [];
  const error = save.error
    ? [messageOf(save.error), ...details.map((detail) => `${detail.path}: ${detail.message}`)].join(' — ')
    : undefined;
  return (
    <section aria-labelledby="fallbacks-title">
      <h2 id="fallbacks-title">Default fallbacks</h2>
      <p class="hint">
        When a request's model fails and the request names no fallbacks, these models are tried in this order.
      </p>
      {fallbacks.error && <Notice kind="error">{messageOf(fallbacks.error)}</Notice>}
      {!canWrite &&
        fallbacks.data &&
        (stored.length ? (
          <ol>
            {stored.map((model) => (
              <li key={model}>{model}</li>
            ))}
          </ol>
        ) : (
          <p>No default fallback.</p>
        ))}
      {canWrite && fallbacks.data && (
        <form
          aria-label="Default fallbacks"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              text
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean),
            );
          }}
        >
          <TextArea
            label="Fallback models, one per line, in order"
            value={text}
            error={error}
            hint={
              models.data?.data.length
                ? `Models of the vendors set: ${models.data.data.map((model) => model.id).join(', ')}`
                : undefined
            }
            onInput={setDraft}
          />
          <Busy busy={save.isPending} type="submit">
            Save fallbacks
          </Busy>
          {save.isSuccess && !draft && <Notice kind="success">Fallbacks saved.</Notice>}
        </form>
      )}
    </section>
  );
}

function TextArea(props: {
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onInput(value: string): void;
}) {
  const id = useId();
  const described = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={4}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.hint && (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={`${id}-error`} class="error" role="alert">
          {props.error}
        </small>
      )}
    </div>
  );
}
