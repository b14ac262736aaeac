/** Authentication users of a project: search by e-mail, cursor pages, open one, disable, delete, resend verification. */
import type { auth } from '@platform/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { controlPlane, projectClient, unwrap } from '../api';
import { may } from '../roles';
import { Busy, Field, messageOf, Notice, Pager, useCursorPages, when } from '../ui';

type User = auth.components['schemas']['ManagedUser'];

export function Users() {
  const { orgId, projectId } = useRoute().params as { orgId: string; projectId: string };
  const client = useMemo(() => projectClient(orgId, projectId), [orgId, projectId]);
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  const [email, setEmail] = useState('');
  const pages = useCursorPages();
  const [openId, setOpenId] = useState<string>();
  const { cursor } = pages;
  const users = useQuery({
    queryKey: ['users', projectId, email, cursor],
    queryFn: () =>
      unwrap(
        client.auth.getUsers({
          params: { query: { limit: 25, ...(email ? { email } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      ),
  });
  const writes = may(org.data?.role).writeSettings;
  return (
    <section>
      <p class="crumbs">
        <a href={`/orgs/${orgId}/projects/${projectId}`}>Project</a> / Users
      </p>
      <h1>Users</h1>
      <Field
        label="Search by e-mail (starts with)"
        type="search"
        value={email}
        onChange={(event) => {
          setEmail(event.currentTarget.value);
          pages.restart();
        }}
      />
      {users.error && <Notice kind="error">{messageOf(users.error)}</Notice>}
      <table>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Verified</th>
            <th scope="col">Last login</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {users.data?.users.map((user) => (
            <tr key={user.id}>
              <td>
                <button type="button" class="link" onClick={() => setOpenId(user.id)}>
                  {user.email}
                </button>
              </td>
              <td>{user.emailVerified ? 'yes' : 'no'}</td>
              <td>{when(user.lastLogin)}</td>
              <td>{user.disabled ? 'disabled' : 'active'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.data?.users.length === 0 && <p>No user.</p>}
      <Pager label="users" {...pages.moves(users.data?.nextCursor)} />
      {openId && (
        <UserDetail
          client={client}
          projectId={projectId}
          userId={openId}
          writes={writes}
          onGone={() => setOpenId(undefined)}
        />
      )}
    </section>
  );
}

function UserDetail(props: {
  client: ReturnType<typeof projectClient>;
  projectId: string;
  userId: string;
  writes: boolean;
  onGone(): void;
}) {
  const cache = useQueryClient();
  const [confirm, setConfirm] = useState('');
  const path = { params: { path: { user_id: props.userId } } };
  const user = useQuery({
    queryKey: ['user', props.projectId, props.userId],
    queryFn: () => unwrap(props.client.auth.getUser(path)),
  });
  const refresh = () =>
    cache
      .invalidateQueries({ queryKey: ['user', props.projectId] })
      .then(() => cache.invalidateQueries({ queryKey: ['users', props.projectId] }));
  const act = useMutation({
    mutationFn: async (action: 'disable' | 'enable' | 'resend' | 'delete') => {
      if (action === 'disable') await unwrap(props.client.auth.postUserDisable(path));
      if (action === 'enable') await unwrap(props.client.auth.postUserEnable(path));
      if (action === 'resend') await unwrap(props.client.auth.postUserResendVerification(path));
      if (action === 'delete') await unwrap(props.client.auth.deleteUser(path));
      return action;
    },
    onSuccess: async (action) => {
      if (action === 'delete') props.onGone();
      await refresh();
    },
  });
  const shown: User | undefined = user.data?.user;
  if (user.error) return <Notice kind="error">{messageOf(user.error)}</Notice>;
  if (!shown) return <p>Loading…</p>;
  return (
    <article class="card" aria-label={`User ${shown.email}`}>
      <h2>{shown.email}</h2>
      <dl class="pairs">
        <dt>Id</dt>
        <dd>
          <code>{shown.id}</code>
        </dd>
        <dt>Verified</dt>
        <dd>{shown.emailVerified ? 'yes' : 'no'}</dd>
        <dt>Created</dt>
        <dd>{when(shown.createdAt)}</dd>
        <dt>Last login</dt>
        <dd>{when(shown.lastLogin)}</dd>
        <dt>State</dt>
        <dd>{shown.disabled ? `disabled ${when(shown.disabledAt)}` : 'active'}</dd>
        <dt>Metadata</dt>
        <dd>
          <pre>{JSON.stringify(shown.metadata, null, 2)}</pre>
        </dd>
      </dl>
      {act.error && <Notice kind="error">{messageOf(act.error)}</Notice>}
      {act.isSuccess && <Notice kind="success">Done.</Notice>}
      {props.writes && (
        <div class="actions">
          {shown.disabled ? (
            <Busy busy={act.isPending} type="button" onClick={() => act.mutate('enable')}>
              Enable
            </Busy>
          ) : (
            <Busy busy={act.isPending} type="button" onClick={() => act.mutate('disable')}>
              Disable
            </Busy>
          )}
          {!shown.emailVerified && (
            <Busy busy={act.isPending} type="button" onClick={() => act.mutate('resend')}>
              Resend verification
            </Busy>
          )}
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              act.mutate('delete');
            }}
          >
            <Field
              label={`Type ${shown.email} to delete`}
              value={confirm}
              onInput={(event) => setConfirm(event.currentTarget.value)}
            />
            <Busy busy={act.isPending} type="submit" class="danger" disabled={confirm !== shown.email}>
              Delete user
            </Busy>
          </form>
        </div>
      )}
    </article>
  );
}
