/** One content item: edit (a published item's changes go to its draft), publish, unpublish, schedule, delete, revisions. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { CallFailed, unwrap } from '../../api';
import { Busy, Dialog, messageOf, Notice, when } from '../../ui';
import { CallError } from './call-error';
import { useCms } from './cms-context';
import { changesOf, ContentFields, formOf, formProblems, type ContentForm } from './content-form';
import { useLatestState } from './latest-state';
import { Revisions } from './revisions';

type Action = 'save' | 'publish' | 'unpublish' | 'discard-draft';

const DONE: Record<Action, string> = {
  save: 'Saved.',
  publish: 'Published.',
  unpublish: 'Unpublished: the item is a draft again.',
  'discard-draft': 'Draft discarded.',
};

export function ContentEditor() {
  const { client, projectId, base, writes } = useCms();
  const { contentId } = useRoute().params as { contentId: string };
  const { query, route } = useLocation();
  const cache = useQueryClient();
  const path = { content_id: contentId };
  const live = useQuery({
    queryKey: ['cms-item', projectId, contentId, 'live'],
    queryFn: () => unwrap(client.cms.getContentByContentId({ params: { path } })),
  });
  // What is edited: the pending draft of a published item, else the item itself.
  const editable = useQuery({
    queryKey: ['cms-item', projectId, contentId, 'draft'],
    queryFn: () => unwrap(client.cms.getContentByContentId({ params: { path, query: { version: 'draft' } } })),
  });
  const [form, setForm, latest] = useLatestState<ContentForm | undefined>(undefined);
  const saved = editable.data ? formOf(editable.data) : undefined;
  useEffect(() => {
    if (editable.data) setForm(formOf(editable.data));
  }, [editable.data?.updatedAt, editable.data?.revision, editable.data?.hasDraft]);
  const refresh = async () => {
    await cache.invalidateQueries({ queryKey: ['cms-item', projectId, contentId] });
    await cache.invalidateQueries({ queryKey: ['cms-revisions', projectId, contentId] });
    await cache.invalidateQueries({ queryKey: ['cms-content', projectId] });
  };
  const published = live.data?.status === 'published';
  const act = useMutation({
    mutationFn: async (action: Action) => {
      if (action === 'save' && latest.current && saved) {
        const changes = changesOf(latest.current, saved);
        await unwrap(
          client.cms.putContentByContentId({ params: { path, query: { draft: published } }, body: changes }),
        );
      }
      if (action === 'publish') await unwrap(client.cms.postContentByContentIdPublish({ params: { path } }));
      if (action === 'unpublish') {
        await unwrap(client.cms.putContentByContentId({ params: { path }, body: { status: 'draft' } }));
      }
      if (action === 'discard-draft') await unwrap(client.cms.deleteContentByContentIdDraft({ params: { path } }));
      return action;
    },
    onSuccess: refresh,
  });
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(client.cms.deleteContentByContentId({ params: { path } })),
    onSuccess: async () => {
      await cache.invalidateQueries({ queryKey: ['cms-content', projectId] });
      route(`${base}?deleted=1`);
    },
  });

  const error = live.error ?? editable.error;
  if (error) return <Notice kind="error">{messageOf(error)}</Notice>;
  if (!live.data || !editable.data || !form || !saved) return <p>Loading…</p>;
  const item = live.data;
  const custom = item.type === 'custom';
  const dirty = Object.keys(changesOf(form, saved)).length > 0;
  const problems = formProblems(form, custom);
  const fieldErrors = act.error instanceof CallFailed && act.variables === 'save' ? act.error.fieldMessages : {};
  const canPublish = !published || item.hasDraft;
  return (
    <section>
      <p class="crumbs">
        <a href={base}>Content</a> / {item.title}
      </p>
      <h1>{item.title}</h1>
      {query.created && !act.isSuccess && <Notice kind="success">Content created.</Notice>}
      <dl class="pairs" aria-label="State">
        <dt>Status</dt>
        <dd data-testid="content-status">
          {item.status}
          {item.hasDraft && <span class="badge">draft pending</span>}
        </dd>
        <dt>Kind</dt>
        <dd>{custom ? `custom (${item.contentType})` : item.type}</dd>
        <dt>Revision</dt>
        <dd>{item.revision}</dd>
        <dt>Publishes at</dt>
        <dd>{when(editable.data.publishAt)}</dd>
        <dt>Unpublishes at</dt>
        <dd>{when(item.unpublishAt)}</dd>
        <dt>Updated</dt>
        <dd>{when(item.updatedAt)}</dd>
      </dl>
      {published && writes && (
        <p class="hint">
          The item is live: saving keeps readers on the published version and stores your changes as its draft, which
          goes live when you publish it (or at its publish time).
        </p>
      )}
      <form
        aria-label="Edit content"
        onSubmit={(event) => {
          event.preventDefault();
          act.mutate('save');
        }}
      >
        <ContentFields form={form} onChange={setForm} custom={custom} disabled={!writes} fieldErrors={fieldErrors} />
        {act.error && <CallError error={act.error} />}
        {act.isSuccess && !act.isPending && <Notice kind="success">{DONE[act.data]}</Notice>}
        {writes && (
          <div class="actions">
            <Busy busy={act.isPending && act.variables === 'save'} type="submit" disabled={!dirty || !problems.ok}>
              {published ? 'Save draft' : 'Save'}
            </Busy>
            {canPublish && (
              <Busy
                busy={act.isPending && act.variables === 'publish'}
                type="button"
                disabled={dirty}
                onClick={() => act.mutate('publish')}
              >
                {item.hasDraft ? 'Publish draft' : 'Publish'}
              </Busy>
            )}
            {item.hasDraft && (
              <Busy
                busy={act.isPending && act.variables === 'discard-draft'}
                type="button"
                onClick={() => act.mutate('discard-draft')}
              >
                Discard draft
              </Busy>
            )}
            {published && (
              <Busy
                busy={act.isPending && act.variables === 'unpublish'}
                type="button"
                onClick={() => act.mutate('unpublish')}
              >
                Unpublish
              </Busy>
            )}
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete…
            </button>
          </div>
        )}
        {writes && dirty && canPublish && <p class="hint">Save your changes before publishing.</p>}
      </form>
      <Dialog title="Delete this item?" open={deleting} onClose={() => setDeleting(false)}>
        <p>
          “{item.title}” and its revisions are removed for good; webhooks hear <code>content.deleted</code>.
        </p>
        {remove.error && <Notice kind="error">{messageOf(remove.error)}</Notice>}
        <div class="actions">
          <Busy busy={remove.isPending} type="button" class="danger" onClick={() => remove.mutate()}>
            Delete item
          </Busy>
          <button type="button" onClick={() => setDeleting(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
      <Revisions item={item} onRestored={refresh} />
    </section>
  );
}
