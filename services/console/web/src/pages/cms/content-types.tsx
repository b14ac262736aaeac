/** The project's content types: the list, and a new type with its JSON Schema checked as it is typed. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, when } from '../../ui';
import { CallError } from './call-error';
import { useCms } from './cms-context';
import { JsonField } from './json-field';
import { useLatestState } from './latest-state';
import { checkSchema } from './schema-check';

export const STARTER_SCHEMA = `{
  "type": "object",
  "properties": {
    "headline": { "type": "string", "minLength": 1 }
  },
  "required": ["headline"]
}`;

export function ContentTypes() {
  const { client, projectId, base, writes } = useCms();
  const types = useQuery({
    queryKey: ['cms-types', projectId],
    queryFn: () => unwrap(client.cms.getContentTypes()),
  });
  return (
    <section>
      <h1>Content types</h1>
      <p class="hint">
        A content type is a JSON Schema: custom content of the type must be a JSON document it accepts.
      </p>
      {types.error && <Notice kind="error">{messageOf(types.error)}</Notice>}
      {types.isPending && <p>Loading…</p>}
      {types.data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {types.data.contentTypes.map((type) => (
              <tr key={type.id}>
                <td>
                  <a href={`${base}/types/${type.id}`}>{type.name}</a>
                </td>
                <td>{type.description}</td>
                <td>{when(type.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {types.data?.contentTypes.length === 0 && <p>No content type yet.</p>}
      {writes && <NewContentType />}
    </section>
  );
}

function NewContentType() {
  const { client, projectId, base } = useCms();
  const cache = useQueryClient();
  const { route } = useLocation();
  const [form, setForm, latest] = useLatestState({ name: '', description: '', schema: STARTER_SCHEMA });
  const check = useMemo(() => checkSchema(form.schema), [form.schema]);
  const create = useMutation({
    mutationFn: () => {
      const form = latest.current;
      const check = checkSchema(form.schema);
      if (!check.ok) throw new Error(check.message);
      return unwrap(
        client.cms.postContentTypes({
          body: {
            name: form.name,
            schema: check.schema,
            ...(form.description ? { description: form.description } : {}),
          },
        }),
      );
    },
    onSuccess: async (type) => {
      await cache.invalidateQueries({ queryKey: ['cms-types', projectId] });
      route(`${base}/types/${type.id}?created=1`);
    },
  });
  return (
    <section aria-labelledby="new-type-title">
      <h2 id="new-type-title">New content type</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label="Name"
          value={form.name}
          required
          maxLength={100}
          hint="Custom content names its type by this name; it cannot change later."
          onInput={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
        <Field
          label="Description"
          value={form.description}
          onInput={(event) => setForm({ ...form, description: event.currentTarget.value })}
        />
        <JsonField
          label="Schema (JSON Schema)"
          value={form.schema}
          rows={12}
          verdict={check}
          okText="Valid JSON Schema (draft-07 keywords)."
          onInput={(schema) => setForm({ ...form, schema })}
        />
        {create.error && <CallError error={create.error} />}
        <Busy busy={create.isPending} type="submit" disabled={!check.ok}>
          Create content type
        </Busy>
      </form>
    </section>
  );
}
