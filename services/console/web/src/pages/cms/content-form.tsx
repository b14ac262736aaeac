/** The fields of a content item as the person edits them, and the changes they make to a stored item. */
import { useId } from 'preact/hooks';
import { Field } from '../../ui';
import type { ContentItem } from './cms-context';
import { checkJson, checkJsonObject, JsonField } from './json-field';

export interface ContentForm {
  title: string;
  slug: string;
  content: string;
  metadata: string;
  /** `datetime-local` values (the person's time zone); empty: no schedule. */
  publishAt: string;
  unpublishAt: string;
}

export const EMPTY_FORM: ContentForm = {
  title: '',
  slug: '',
  content: '',
  metadata: '{}',
  publishAt: '',
  unpublishAt: '',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a `datetime-local` value in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);

export function formOf(item: ContentItem): ContentForm {
  return {
    title: item.title,
    slug: item.slug,
    content: item.content,
    metadata: JSON.stringify(item.metadata, null, 2),
    publishAt: toLocalInput(item.publishAt),
    unpublishAt: toLocalInput(item.unpublishAt),
  };
}

/** What the form changes of `saved`: only those fields go to the service (an unchanged past schedule is not re-sent). */
export function changesOf(form: ContentForm, saved: ContentForm) {
  return {
    ...(form.title !== saved.title ? { title: form.title } : {}),
    ...(form.slug !== saved.slug ? { slug: form.slug } : {}),
    ...(form.content !== saved.content ? { content: form.content } : {}),
    ...(form.metadata !== saved.metadata ? { metadata: JSON.parse(form.metadata) as Record<string, unknown> } : {}),
    ...(form.publishAt !== saved.publishAt ? { publishAt: fromLocalInput(form.publishAt) } : {}),
    ...(form.unpublishAt !== saved.unpublishAt ? { unpublishAt: fromLocalInput(form.unpublishAt) } : {}),
  };
}

/** The schedule of a new item, in the service's words. */
export const scheduleOf = (form: ContentForm) => ({
  ...(form.publishAt ? { publishAt: fromLocalInput(form.publishAt) } : {}),
  ...(form.unpublishAt ? { unpublishAt: fromLocalInput(form.unpublishAt) } : {}),
});

/** Whether what is typed can be sent: the JSON fields parse. */
export function formProblems(form: ContentForm, custom: boolean) {
  const content = custom ? checkJson(form.content) : { ok: true as const };
  const metadata = checkJsonObject(form.metadata);
  return { content, metadata, ok: content.ok && metadata.ok };
}

export function ContentFields(props: {
  form: ContentForm;
  onChange(form: ContentForm): void;
  custom: boolean;
  disabled?: boolean;
  fieldErrors: Record<string, string>;
}) {
  const { form, onChange, disabled } = props;
  const problems = formProblems(form, props.custom);
  return (
    <>
      <Field
        label="Title"
        value={form.title}
        required
        maxLength={500}
        disabled={disabled}
        error={props.fieldErrors.title}
        onInput={(event) => onChange({ ...form, title: event.currentTarget.value })}
      />
      <Field
        label="Slug"
        value={form.slug}
        disabled={disabled}
        error={props.fieldErrors.slug}
        hint="Lowercase letters and digits separated by hyphens; empty: made from the title."
        onInput={(event) => onChange({ ...form, slug: event.currentTarget.value })}
      />
      {props.custom ? (
        <JsonField
          label="Content (JSON document of the content type)"
          value={form.content}
          verdict={problems.content}
          okText="Valid JSON; the content type's schema is checked on save."
          serverError={props.fieldErrors.content}
          disabled={disabled}
          onInput={(content) => onChange({ ...form, content })}
        />
      ) : (
        <TextArea
          label="Content"
          value={form.content}
          disabled={disabled}
          onInput={(content) => onChange({ ...form, content })}
        />
      )}
      <JsonField
        label="Metadata (JSON object)"
        value={form.metadata}
        rows={4}
        verdict={problems.metadata}
        okText="Valid JSON object."
        disabled={disabled}
        onInput={(metadata) => onChange({ ...form, metadata })}
      />
      <fieldset class="inline">
        <legend>Schedule</legend>
        <Field
          label="Publish at"
          type="datetime-local"
          value={form.publishAt}
          disabled={disabled}
          error={props.fieldErrors.publishAt}
          onInput={(event) => onChange({ ...form, publishAt: event.currentTarget.value })}
        />
        <Field
          label="Unpublish at"
          type="datetime-local"
          value={form.unpublishAt}
          disabled={disabled}
          error={props.fieldErrors.unpublishAt}
          onInput={(event) => onChange({ ...form, unpublishAt: event.currentTarget.value })}
        />
      </fieldset>
    </>
  );
}

function TextArea(props: { label: string; value: string; disabled?: boolean; onInput(value: string): void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={10}
        value={props.value}
        disabled={props.disabled}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </div>
  );
}
