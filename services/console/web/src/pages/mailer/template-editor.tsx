/**
 * One template: its default content and locale variants, edited with a live preview that the
 * Mailer renders from the unsaved text as you type; saving, a test send, and deletion.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { CallFailed, unwrap } from '../../api';
import { useSite } from '../../site';
import { Busy, Dialog, Field, messageOf, Notice, Select, TextArea } from '../../ui';
import { useDebounced, type MailerContext, type MailerSchemas } from './mailer-ui';

type Template = MailerSchemas['Template'];
interface Content {
  subject: string;
  html: string;
  text: string;
}
interface Draft {
  name: string;
  templateKey: string;
  /** DEFAULT is the template's own content; other keys are locales. */
  contents: Record<string, Content>;
}

const DEFAULT = 'default';
const PREVIEW_DELAY_MS = 300;
const contentOf = (source: { subject: string; html: string; text?: string | null }): Content => ({
  subject: source.subject,
  html: source.html,
  text: source.text ?? '',
});

function draftOf(template: Template): Draft {
  const contents: Record<string, Content> = { [DEFAULT]: contentOf(template) };
  for (const [locale, variant] of Object.entries(template.variants)) contents[locale] = contentOf(variant);
  return { name: template.name, templateKey: template.templateKey ?? '', contents };
}

function parseData(text: string): { data?: Record<string, unknown>; error?: string } {
  try {
    const data: unknown = JSON.parse(text || '{}');
    if (data && typeof data === 'object' && !Array.isArray(data)) return { data: data as Record<string, unknown> };
    return { error: 'The sample data must be a JSON object, e.g. {"name": "Ada"}' };
  } catch (error) {
    return { error: `The sample data is not JSON: ${(error as Error).message}` };
  }
}

export function TemplateEditor(props: { context: MailerContext; base: string; templateId: string }) {
  const { client, projectId } = props.context;
  const loaded = useQuery({
    queryKey: ['mail-template', projectId, props.templateId],
    queryFn: () =>
      unwrap(client.mailer.getTemplatesByTemplateId({ params: { path: { template_id: props.templateId } } })),
  });
  if (loaded.error) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!loaded.data) return <p>Loading…</p>;
  return <Editor {...props} template={loaded.data} />;
}

function Editor(props: { context: MailerContext; base: string; template: Template }) {
  const { client, projectId, canWrite } = props.context;
  const cache = useQueryClient();
  const [saved, setSaved] = useState(() => draftOf(props.template));
  const [draft, setDraft] = useState(saved);
  const [locale, setLocale] = useState(DEFAULT);
  const [newLocale, setNewLocale] = useState('');
  const [dataText, setDataText] = useState('{\n  "name": "Ada"\n}');
  const content = draft.contents[locale] ?? draft.contents[DEFAULT];
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const sample = parseData(dataText);

  const setContent = (field: keyof Content) => (event: { currentTarget: { value: string } }) =>
    setDraft({
      ...draft,
      contents: { ...draft.contents, [locale]: { ...content, [field]: event.currentTarget.value } },
    });

  const save = useMutation({
    mutationFn: () => {
      const variants = Object.fromEntries(
        Object.entries(draft.contents)
          .filter(([tag]) => tag !== DEFAULT)
          .map(([tag, variant]) => [tag, { ...variant, text: variant.text || null }]),
      );
      const own = draft.contents[DEFAULT];
      return unwrap(
        client.mailer.putTemplatesByTemplateId({
          params: { path: { template_id: props.template.id } },
          body: {
            name: draft.name,
            templateKey: draft.templateKey || null,
            subject: own.subject,
            html: own.html,
            text: own.text || null,
            variants,
          },
        }),
      );
    },
    onSuccess: async (template) => {
      // The answer is what the service stored (locales in their canonical spelling).
      const stored = draftOf(template);
      setSaved(stored);
      setDraft(stored);
      if (!(locale in stored.contents)) setLocale(DEFAULT);
      await cache.invalidateQueries({ queryKey: ['mail-templates', projectId] });
      cache.setQueryData(['mail-template', projectId, template.id], template);
    },
  });
  const fields = save.error instanceof CallFailed ? save.error.fieldMessages : {};
  const locales = Object.keys(draft.contents).filter((tag) => tag !== DEFAULT);

  return (
    <section aria-labelledby="editor-title">
      <p>
        <a href={`${props.base}/templates`}>All templates</a>
      </p>
      <h2 id="editor-title">Template {saved.name}</h2>
      <div class="editor">
        <form
          class="editor-source"
          aria-label="Template source"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <fieldset disabled={!canWrite}>
            <legend class="visually-hidden">Template</legend>
            <Field
              label="Name"
              value={draft.name}
              required
              onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
              error={fields.name}
            />
            <Field
              label="Template key (optional)"
              value={draft.templateKey}
              onInput={(event) => setDraft({ ...draft, templateKey: event.currentTarget.value })}
              error={fields.templateKey}
            />
            <Select label="Locale" value={locale} options={[DEFAULT, ...locales]} onChange={setLocale} />
            <p class="hint">
              {locale === DEFAULT
                ? 'The default content, sent when no variant matches the locale.'
                : `The ${locale} variant.`}
            </p>
            <Field
              label="Subject"
              value={content.subject}
              required
              onInput={setContent('subject')}
              error={fields.subject}
            />
            <TextArea
              label="HTML"
              class="code"
              rows={10}
              value={content.html}
              required
              onInput={setContent('html')}
              error={fields.html}
            />
            <TextArea
              label="Text (optional)"
              class="code"
              rows={4}
              value={content.text}
              onInput={setContent('text')}
              error={fields.text}
            />
          </fieldset>
          {canWrite && (
            <>
              <div class="inline">
                <Field
                  label="New locale"
                  hint="A language tag such as pt-BR; starts as a copy of the default."
                  value={newLocale}
                  onInput={(event) => setNewLocale(event.currentTarget.value)}
                />
                <button
                  type="button"
                  disabled={!newLocale.trim() || newLocale.trim() in draft.contents}
                  onClick={() => {
                    const tag = newLocale.trim();
                    setDraft({ ...draft, contents: { ...draft.contents, [tag]: { ...draft.contents[DEFAULT] } } });
                    setLocale(tag);
                    setNewLocale('');
                  }}
                >
                  Add locale
                </button>
                {locale !== DEFAULT && (
                  <button
                    type="button"
                    onClick={() => {
                      const contents = { ...draft.contents };
                      delete contents[locale];
                      setDraft({ ...draft, contents });
                      setLocale(DEFAULT);
                    }}
                  >
                    Remove {locale}
                  </button>
                )}
              </div>
              {save.error && (
                <Notice kind="error">
                  Not saved: {messageOf(save.error)}
                  {save.error instanceof CallFailed &&
                    save.error.envelope?.error.details?.map((detail) => ` ${detail.path}: ${detail.message}.`)}
                </Notice>
              )}
              {save.isSuccess && !dirty && <Notice kind="success">Saved.</Notice>}
              <Busy busy={save.isPending} type="submit" disabled={!dirty}>
                Save template
              </Busy>{' '}
              {dirty && <span class="hint">Unsaved changes</span>}
            </>
          )}
        </form>
        <div class="editor-preview">
          <TextArea
            label="Sample data (JSON)"
            class="code"
            rows={4}
            value={dataText}
            onInput={(event) => setDataText(event.currentTarget.value)}
            error={sample.error}
          />
          {canWrite ? (
            <LivePreview context={props.context} templateId={props.template.id} content={content} data={sample.data} />
          ) : (
            <p class="hint">Previews are rendered by the Mailer for members who may write.</p>
          )}
        </div>
      </div>
      {canWrite && (
        <TestSend
          context={props.context}
          templateId={props.template.id}
          locale={locale === DEFAULT ? '' : locale}
          data={sample.data}
          dirty={dirty}
        />
      )}
      {canWrite && <DeleteTemplate context={props.context} base={props.base} template={props.template} />}
    </section>
  );
}

/** The service renders the unsaved content; a short pause in typing sends the latest. */
function LivePreview(props: { context: MailerContext; templateId: string; content: Content; data?: object }) {
  const { client, projectId } = props.context;
  const request = useDebounced(
    JSON.stringify({ draft: { ...props.content, text: props.content.text || null }, data: props.data }),
    PREVIEW_DELAY_MS,
  );
  const preview = useQuery({
    queryKey: ['mail-preview', projectId, props.templateId, request],
    queryFn: () =>
      unwrap(
        client.mailer.postTemplatesByTemplateIdPreview({
          params: { path: { template_id: props.templateId } },
          body: JSON.parse(request) as { draft: Content; data: Record<string, unknown> },
        }),
      ),
    enabled: props.data !== undefined,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rendered = preview.data;
  return (
    <section aria-labelledby="preview-title" class="preview">
      <h3 id="preview-title">Preview</h3>
      <p role="status" class="hint">
        {preview.isFetching ? 'Rendering…' : preview.error ? '' : 'Rendered by the Mailer.'}
      </p>
      {preview.error && <Notice kind="error">{previewMessage(preview.error)}</Notice>}
      {rendered && (
        <>
          <p>
            Subject: <strong data-testid="preview-subject">{rendered.subject}</strong>
          </p>
          <iframe title="HTML preview" sandbox="" srcdoc={rendered.html} class="email" data-testid="preview-html" />
          {rendered.text !== null && (
            <>
              <h4>Text</h4>
              <pre tabIndex={0}>{rendered.text}</pre>
            </>
          )}
        </>
      )}
    </section>
  );
}

function previewMessage(error: unknown): string {
  const details = error instanceof CallFailed ? (error.envelope?.error.details ?? []) : [];
  return details.length ? details.map((detail) => detail.message).join(' ') : messageOf(error);
}

function TestSend(props: {
  context: MailerContext;
  templateId: string;
  locale: string;
  data?: object;
  dirty: boolean;
}) {
  const { client, orgId, projectId } = props.context;
  const site = useSite();
  const cache = useQueryClient();
  const [to, setTo] = useState('');
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        client.mailer.postEmailsSend({
          body: {
            to,
            templateId: props.templateId,
            templateData: (props.data ?? {}) as Record<string, never>,
            ...(props.locale ? { locale: props.locale } : {}),
          },
        }),
      ),
    onSuccess: () => cache.invalidateQueries({ queryKey: ['mail-logs', projectId] }),
  });
  const fields = send.error instanceof CallFailed ? send.error.fieldMessages : {};
  return (
    <section aria-labelledby="test-send-title">
      <h3 id="test-send-title">Send a test e-mail</h3>
      <p class="hint">
        Sends the saved template{props.locale ? ` (${props.locale})` : ''} with the sample data.
        {props.dirty && ' Save first to send your latest changes.'}
      </p>
      <form
        class="inline"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate();
        }}
      >
        <Field
          label="Send to"
          type="email"
          required
          value={to}
          onInput={(event) => setTo(event.currentTarget.value)}
          error={fields.to ?? (send.error && !fields.to ? messageOf(send.error) : undefined)}
        />
        <Busy busy={send.isPending} type="submit" disabled={props.data === undefined}>
          Send test e-mail
        </Busy>
      </form>
      {send.data && (
        <Notice kind={send.data.status === 'sent' ? 'success' : 'error'}>
          {send.data.status === 'sent'
            ? `Sent to ${send.data.to}.`
            : `Not sent to ${send.data.to}: ${send.data.status}${send.data.reason ? ` (${send.data.reason})` : ''}.`}{' '}
          {site.data?.devInbox && send.data.status === 'sent' && (
            <a href={`/dev-inbox?orgId=${encodeURIComponent(orgId)}&projectId=${encodeURIComponent(projectId)}`}>
              Open the project's dev inbox
            </a>
          )}
        </Notice>
      )}
    </section>
  );
}

function DeleteTemplate(props: { context: MailerContext; base: string; template: Template }) {
  const { client, projectId } = props.context;
  const cache = useQueryClient();
  const { route } = useLocation();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      unwrap(client.mailer.deleteTemplatesByTemplateId({ params: { path: { template_id: props.template.id } } })),
    onSuccess: async () => {
      setAsking(false);
      await cache.invalidateQueries({ queryKey: ['mail-templates', projectId] });
      route(`${props.base}/templates`);
    },
  });
  useEffect(() => {
    if (!asking) remove.reset();
  }, [asking]);
  return (
    <section aria-labelledby="delete-template-title">
      <h3 id="delete-template-title">Delete</h3>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete template…
      </button>
      <Dialog title={`Delete ${props.template.name}?`} open={asking} onClose={() => setAsking(false)}>
        <p>Sends that name it fail from then on. This cannot be undone.</p>
        {remove.error && <Notice kind="error">{messageOf(remove.error)}</Notice>}
        <Busy busy={remove.isPending} type="button" class="danger" onClick={() => remove.mutate()}>
          Delete template
        </Busy>{' '}
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </Dialog>
    </section>
  );
}
