/** The project's templates: the list (paged) and a new one, which then opens in the editor. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, offsetMoves, Pager, pageRange, TextArea, when } from '../../ui';
import type { MailerContext } from './mailer-ui';

const PAGE = 25;
const STARTER = { name: '', templateKey: '', subject: 'Hello {{name}}', html: '<p>Hello {{name}}</p>', text: '' };

export function Templates(props: { context: MailerContext; base: string }) {
  const { client, projectId, canWrite } = props.context;
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['mail-templates', projectId, offset],
    queryFn: () => unwrap(client.mailer.getTemplates({ params: { query: { limit: PAGE, offset } } })),
  });
  return (
    <section aria-labelledby="templates-title">
      <h2 id="templates-title">Templates</h2>
      {list.error && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {list.isLoading && <p>Loading…</p>}
      {list.data && list.data.templates.length === 0 && <p>No template yet.</p>}
      {list.data && list.data.templates.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Subject</th>
              <th scope="col">Locales</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.templates.map((template) => (
              <tr key={template.id}>
                <td>
                  <a href={`${props.base}/templates/${template.id}`}>{template.name}</a>
                </td>
                <td>{template.templateKey ? <code>{template.templateKey}</code> : '—'}</td>
                <td>{template.subject}</td>
                <td>{template.locales?.length ? template.locales.join(', ') : 'default only'}</td>
                <td>{when(template.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="templates"
        position={pageRange(offset, PAGE, list.data?.total)}
        {...offsetMoves(offset, PAGE, list.data?.total, setOffset)}
      />
      {canWrite && <NewTemplate context={props.context} base={props.base} />}
    </section>
  );
}

function NewTemplate(props: { context: MailerContext; base: string }) {
  const { client, projectId } = props.context;
  const cache = useQueryClient();
  const { route } = useLocation();
  const [draft, setDraft] = useState(STARTER);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        client.mailer.postTemplates({
          body: {
            name: draft.name,
            subject: draft.subject,
            html: draft.html,
            ...(draft.templateKey ? { templateKey: draft.templateKey } : {}),
            ...(draft.text ? { text: draft.text } : {}),
          },
        }),
      ),
    onSuccess: async (created) => {
      await cache.invalidateQueries({ queryKey: ['mail-templates', projectId] });
      route(`${props.base}/templates/${created.id}`);
    },
  });
  const fields = create.error instanceof CallFailed ? create.error.fieldMessages : {};
  const set = (name: keyof typeof STARTER) => (event: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [name]: event.currentTarget.value });
  return (
    <section aria-labelledby="new-template-title">
      <h3 id="new-template-title">New template</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Field label="Name" value={draft.name} required onInput={set('name')} error={fields.name} />
        <Field
          label="Template key (optional)"
          hint="Sends may name the template by this key instead of its id."
          value={draft.templateKey}
          onInput={set('templateKey')}
          error={fields.templateKey}
        />
        <Field label="Subject" value={draft.subject} required onInput={set('subject')} error={fields.subject} />
        <TextArea
          label="HTML"
          class="code"
          rows={5}
          value={draft.html}
          required
          onInput={set('html')}
          error={fields.html}
        />
        <TextArea
          label="Text (optional)"
          class="code"
          rows={3}
          value={draft.text}
          onInput={set('text')}
          error={fields.text}
        />
        {create.error && !Object.keys(fields).length && <Notice kind="error">{messageOf(create.error)}</Notice>}
        <Busy busy={create.isPending} type="submit">
          Create template
        </Busy>
      </form>
    </section>
  );
}
