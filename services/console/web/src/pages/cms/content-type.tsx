/** One content type: its description and schema, changed with the schema checked as it is typed. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useMemo } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, when } from '../../ui';
import { CallError } from './call-error';
import { useCms } from './cms-context';
import { JsonField } from './json-field';
import { useLatestState } from './latest-state';
import { checkSchema } from './schema-check';

export function ContentTypeEditor() {
  const { client, projectId, base, writes } = useCms();
  const { typeId } = useRoute().params as { typeId: string };
  const { query } = useLocation();
  const cache = useQueryClient();
  const type = useQuery({
    queryKey: ['cms-type', projectId, typeId],
    queryFn: () => unwrap(client.cms.getContentTypesByContentTypeId({ params: { path: { content_type_id: typeId } } })),
  });
  const [form, setForm, latest] = useLatestState<{ description: string; schema: string } | undefined>(undefined);
  useEffect(() => {
    if (type.data)
      setForm({ description: type.data.description ?? '', schema: JSON.stringify(type.data.schema, null, 2) });
  }, [type.data?.updatedAt]);
  const check = useMemo(() => checkSchema(form?.schema ?? '{}'), [form?.schema]);
  const save = useMutation({
    mutationFn: () => {
      const check = checkSchema(latest.current?.schema ?? '{}');
      if (!check.ok) throw new Error(check.message);
      return unwrap(
        client.cms.putContentTypesByContentTypeId({
          params: { path: { content_type_id: typeId } },
          body: { description: latest.current?.description ?? '', schema: check.schema },
        }),
      );
    },
    onSuccess: async () => {
      await cache.invalidateQueries({ queryKey: ['cms-type', projectId, typeId] });
      await cache.invalidateQueries({ queryKey: ['cms-types', projectId] });
    },
  });
  if (type.error) return <Notice kind="error">{messageOf(type.error)}</Notice>;
  if (!type.data || !form) return <p>Loading…</p>;
  return (
    <section>
      <p class="crumbs">
        <a href={`${base}/types`}>Content types</a> / {type.data.name}
      </p>
      <h1>Content type {type.data.name}</h1>
      {query.created && !save.isSuccess && <Notice kind="success">Content type created.</Notice>}
      <p class="hint">
        Updated {when(type.data.updatedAt)}. A new schema applies to later creates and content updates; stored items are
        not checked again.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Field label="Name" value={type.data.name} readOnly />
        <Field
          label="Description"
          value={form.description}
          disabled={!writes}
          onInput={(event) => setForm({ ...form, description: event.currentTarget.value })}
        />
        <JsonField
          label="Schema (JSON Schema)"
          value={form.schema}
          rows={16}
          verdict={check}
          okText="Valid JSON Schema (draft-07 keywords)."
          disabled={!writes}
          onInput={(schema) => setForm({ ...form, schema })}
        />
        {save.error && <CallError error={save.error} />}
        {save.isSuccess && <Notice kind="success">Saved.</Notice>}
        {writes && (
          <Busy busy={save.isPending} type="submit" disabled={!check.ok}>
            Save content type
          </Busy>
        )}
      </form>
      {writes && (
        <p>
          <a href={`${base}/content/new?contentType=${encodeURIComponent(type.data.name)}`}>
            New {type.data.name} content
          </a>
        </p>
      )}
    </section>
  );
}
