/** Home: the member's organisations, and a new one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { controlPlane, unwrap } from '../api';
import { useMe } from '../session';
import { Busy, Field, messageOf, Notice } from '../ui';

export function Organisations() {
  const me = useMe();
  const { route } = useLocation();
  const cache = useQueryClient();
  const [name, setName] = useState('');
  const organisations = useQuery({
    queryKey: ['organisations'],
    queryFn: () => unwrap(controlPlane.listOrganisations()),
    enabled: Boolean(me.data),
  });
  const create = useMutation({
    mutationFn: () => unwrap(controlPlane.createOrganisation({ body: { name } })),
    onSuccess: async (created) => {
      await cache.invalidateQueries({ queryKey: ['organisations'] });
      route(`/orgs/${(created as { id: string }).id}`);
    },
  });
  if (me.isLoading) return <p>Loading…</p>;
  if (!me.data) {
    route('/sign-in', true);
    return null;
  }
  return (
    <section>
      <h1>Organisations</h1>
      {organisations.error && <Notice kind="error">{messageOf(organisations.error)}</Notice>}
      <ul class="cards">
        {organisations.data?.organisations.map((org) => (
          <li key={org.id}>
            <a href={`/orgs/${org.id}`}>{org.name}</a> <span class="badge">{org.role}</span>
            {org.suspended && <span class="badge danger">suspended</span>}
          </li>
        ))}
      </ul>
      {organisations.data?.organisations.length === 0 && <p>You are not in any organisation yet: make one.</p>}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Field
          label="New organisation name"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          required
          error={create.error ? messageOf(create.error) : undefined}
        />
        <Busy busy={create.isPending} type="submit">
          Create organisation
        </Busy>
      </form>
    </section>
  );
}
