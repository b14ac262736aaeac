/** A new content item: its kind (a custom item names its content type), fields, status and schedule. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { CallFailed, unwrap } from '../../api';
import { Busy, Notice, Select } from '../../ui';
import { CallError } from './call-error';
import { CONTENT_KINDS, CONTENT_STATUSES, useCms, type ContentKind, type ContentStatus } from './cms-context';
import { ContentFields, EMPTY_FORM, formProblems, scheduleOf, type ContentForm } from './content-form';
import { useLatestState } from './latest-state';

export function NewContent() {
  const { client, projectId, base, writes } = useCms();
  const cache = useQueryClient();
  const { query, route } = useLocation();
  const [kind, setKind] = useState<ContentKind>(query.contentType ? 'custom' : 'page');
  const [contentType, setContentType] = useState(query.contentType ?? '');
  const [status, setStatus] = useState<ContentStatus>('draft');
  const [form, setForm, latest] = useLatestState<ContentForm>(EMPTY_FORM);
  const custom = kind === 'custom';
  const types = useQuery({
    queryKey: ['cms-types', projectId],
    queryFn: () => unwrap(client.cms.getContentTypes()),
    enabled: custom,
  });
  const typeNames = types.data?.contentTypes.map((type) => type.name) ?? [];
  const create = useMutation({
    mutationFn: () => {
      const form = latest.current;
      return unwrap(
        client.cms.postContent({
          body: {
            type: kind,
            title: form.title,
            content: form.content,
            metadata: JSON.parse(form.metadata) as Record<string, unknown>,
            status,
            ...(form.slug ? { slug: form.slug } : {}),
            ...(custom ? { contentType: contentType || typeNames[0] } : {}),
            ...scheduleOf(form),
          },
        }),
      );
    },
    onSuccess: async (item) => {
      await cache.invalidateQueries({ queryKey: ['cms-content', projectId] });
      route(`${base}/content/${item.id}?created=1`);
    },
  });
  if (!writes) return <Notice kind="info">Your role may read content but not create it.</Notice>;
  const problems = formProblems(form, custom);
  const fieldErrors = create.error instanceof CallFailed ? create.error.fieldMessages : {};
  return (
    <section>
      <p class="crumbs">
        <a href={base}>Content</a> / New
      </p>
      <h1>New content</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div class="inline">
          <Select
            label="Kind"
            value={kind}
            options={CONTENT_KINDS}
            onChange={(value) => setKind(value as ContentKind)}
          />
          {custom && (
            <Select
              label="Content type"
              value={contentType || typeNames[0] || ''}
              options={typeNames}
              onChange={setContentType}
            />
          )}
          <Select
            label="Status"
            value={status}
            options={CONTENT_STATUSES}
            onChange={(value) => setStatus(value as ContentStatus)}
          />
        </div>
        {custom && types.isSuccess && typeNames.length === 0 && (
          <Notice kind="info">
            No content type yet: <a href={`${base}/types`}>define one</a> first.
          </Notice>
        )}
        <ContentFields form={form} onChange={setForm} custom={custom} fieldErrors={fieldErrors} />
        {create.error && <CallError error={create.error} />}
        <Busy busy={create.isPending} type="submit" disabled={!problems.ok}>
          Create content
        </Busy>
      </form>
    </section>
  );
}
