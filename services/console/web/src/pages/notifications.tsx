/** Notifications of a project: compose and send (to a user or everyone), the list with read state, a user's live inbox. */
import type { notifications } from '@platform/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { projectClient, unwrap } from '../api';
import { Busy, Field, messageOf, Notice, offsetMoves, Pager, when } from '../ui';

type Notification = notifications.components['schemas']['Notification'];
const PAGE = 20;

export function Notifications() {
  const { orgId, projectId } = useRoute().params as { orgId: string; projectId: string };
  const client = useMemo(() => projectClient(orgId, projectId), [orgId, projectId]);
  const cache = useQueryClient();
  const [draft, setDraft] = useState({ userId: '', title: '', message: '' });
  const [filter, setFilter] = useState({ userId: '', offset: 0 });
  const list = useQuery({
    queryKey: ['notifications', projectId, filter],
    queryFn: () =>
      unwrap(
        client.notifications.getNotifications({
          params: {
            query: { limit: PAGE, offset: filter.offset, ...(filter.userId ? { userId: filter.userId } : {}) },
          },
        }),
      ),
  });
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        client.notifications.postNotifications({
          body: { title: draft.title, message: draft.message, ...(draft.userId ? { userId: draft.userId } : {}) },
        }),
      ),
    onSuccess: () => {
      setDraft({ ...draft, title: '', message: '' });
      return cache.invalidateQueries({ queryKey: ['notifications', projectId] });
    },
  });
  return (
    <section>
      <p class="crumbs">
        <a href={`/orgs/${orgId}/projects/${projectId}`}>Project</a> / Notifications
      </p>
      <h1>Notifications</h1>
      <section aria-labelledby="compose-title">
        <h2 id="compose-title">Compose</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            send.mutate();
          }}
        >
          <Field
            label="To user (id; empty: everyone)"
            value={draft.userId}
            onInput={(event) => setDraft({ ...draft, userId: event.currentTarget.value })}
          />
          <Field
            label="Title"
            value={draft.title}
            required
            onInput={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
          />
          <Field
            label="Message"
            value={draft.message}
            required
            onInput={(event) => setDraft({ ...draft, message: event.currentTarget.value })}
          />
          {send.error && <Notice kind="error">{messageOf(send.error)}</Notice>}
          {send.isSuccess && <Notice kind="success">Sent.</Notice>}
          <Busy busy={send.isPending} type="submit">
            Send notification
          </Busy>
        </form>
      </section>
      <section aria-labelledby="sent-title">
        <h2 id="sent-title">Sent</h2>
        <Field
          label="Filter by user id"
          value={filter.userId}
          onChange={(event) => setFilter({ userId: event.currentTarget.value, offset: 0 })}
        />
        {list.error && <Notice kind="error">{messageOf(list.error)}</Notice>}
        <NotificationTable rows={list.data?.notifications ?? []} />
        <Pager
          label="notifications"
          {...offsetMoves(filter.offset, PAGE, list.data?.total, (offset) => setFilter({ ...filter, offset }))}
        />
      </section>
      <LiveInbox orgId={orgId} projectId={projectId} />
    </section>
  );
}

function NotificationTable(props: { rows: Notification[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Message</th>
          <th scope="col">To</th>
          <th scope="col">Read</th>
          <th scope="col">Sent</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.id}>
            <td>{row.title}</td>
            <td>{row.message}</td>
            <td>{row.userId ?? 'everyone'}</td>
            <td>{row.read ? `read ${when(row.readAt)}` : 'unread'}</td>
            <td>{when(row.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The service's stream for one user, as that user's app would see it. */
function LiveInbox(props: { orgId: string; projectId: string }) {
  const [userId, setUserId] = useState('');
  const [watching, setWatching] = useState('');
  const [state, setState] = useState<{ unread?: number; arrived: Notification[]; status: string }>({
    arrived: [],
    status: 'closed',
  });
  useEffect(() => {
    if (!watching) return undefined;
    const source = new EventSource(
      `/api/projects/${props.orgId}/${props.projectId}/notifications/v1/notifications/stream?userId=${encodeURIComponent(watching)}`,
    );
    setState({ arrived: [], status: 'connecting' });
    source.onopen = () => setState((old) => ({ ...old, status: 'open' }));
    source.onerror = () => setState((old) => ({ ...old, status: 'reconnecting' }));
    source.addEventListener('unread_count', (event) => {
      const { count } = JSON.parse((event as MessageEvent<string>).data) as { count: number };
      setState((old) => ({ ...old, unread: count }));
    });
    source.addEventListener('notification', (event) => {
      const notification = JSON.parse((event as MessageEvent<string>).data) as Notification;
      setState((old) => ({ ...old, arrived: [notification, ...old.arrived].slice(0, 50) }));
    });
    return () => source.close();
  }, [watching, props.orgId, props.projectId]);
  return (
    <section aria-labelledby="live-title">
      <h2 id="live-title">Live inbox</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setWatching(userId);
        }}
      >
        <Field
          label="User id to watch"
          value={userId}
          required
          onInput={(event) => setUserId(event.currentTarget.value)}
        />
        <button type="submit">Watch</button>
      </form>
      {watching && (
        <div aria-live="polite">
          <p>
            Stream {state.status}
            {state.unread !== undefined && <>, {state.unread} unread</>}.
          </p>
          <ul data-testid="live-inbox">
            {state.arrived.map((notification) => (
              <li key={notification.id}>
                <strong>{notification.title}</strong>: {notification.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
