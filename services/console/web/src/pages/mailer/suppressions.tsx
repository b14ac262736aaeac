/** The suppression list: addresses the project no longer sends to, by reason; add one or take one off. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, offsetMoves, Pager, pageRange, Select, when } from '../../ui';
import type { MailerContext, MailerSchemas } from './mailer-ui';

type Reason = MailerSchemas['Suppression']['reason'];
type Scope = MailerSchemas['Suppression']['scope'];
const REASONS: readonly ('all' | Reason)[] = ['all', 'bounce', 'complaint', 'unsubscribe', 'manual'];
const PAGE = 25;

export function Suppressions(props: { context: MailerContext }) {
  const { client, projectId, canWrite } = props.context;
  const cache = useQueryClient();
  const [filter, setFilter] = useState<{ reason: 'all' | Reason; offset: number }>({ reason: 'all', offset: 0 });
  const list = useQuery({
    queryKey: ['mail-suppressions', projectId, filter],
    queryFn: () =>
      unwrap(
        client.mailer.getSuppressions({
          params: {
            query: {
              limit: PAGE,
              offset: filter.offset,
              ...(filter.reason === 'all' ? {} : { reason: filter.reason }),
            },
          },
        }),
      ),
  });
  const refresh = () => cache.invalidateQueries({ queryKey: ['mail-suppressions', projectId] });
  const remove = useMutation({
    mutationFn: (email: string) => unwrap(client.mailer.deleteSuppressionsByEmail({ params: { path: { email } } })),
    onSettled: refresh,
  });
  return (
    <section aria-labelledby="suppressions-title">
      <h2 id="suppressions-title">Suppression list</h2>
      <p class="hint">
        No e-mail goes to these addresses (scope all), or no marketing e-mail (scope marketing). Bounces, complaints and
        unsubscribes are added by the vendors' events.
      </p>
      <Select
        label="Reason"
        value={filter.reason}
        options={REASONS}
        onChange={(reason) => setFilter({ reason: reason as 'all' | Reason, offset: 0 })}
      />
      {list.error && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {remove.error && <Notice kind="error">Not removed: {messageOf(remove.error)}</Notice>}
      {remove.isSuccess && <Notice kind="success">Removed {remove.variables}; it receives e-mail again.</Notice>}
      {list.isLoading && <p>Loading…</p>}
      {list.data && list.data.suppressions.length === 0 && <p>No suppressed address.</p>}
      {list.data && list.data.suppressions.length > 0 && (
        <table>
          <caption class="visually-hidden">Suppressed addresses, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Reason</th>
              <th scope="col">Scope</th>
              <th scope="col">Added</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.suppressions.map((entry) => (
              <tr key={entry.email}>
                <td>{entry.email}</td>
                <td>
                  {entry.reason}
                  {entry.providerEvent && ` (${entry.providerEvent})`}
                </td>
                <td>{entry.scope}</td>
                <td>{when(entry.createdAt)}</td>
                {canWrite && (
                  <td>
                    <Busy
                      busy={remove.isPending && remove.variables === entry.email}
                      type="button"
                      onClick={() => remove.mutate(entry.email)}
                      aria-label={`Remove ${entry.email}`}
                    >
                      Remove
                    </Busy>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="suppressed addresses"
        position={pageRange(filter.offset, PAGE, list.data?.total)}
        {...offsetMoves(filter.offset, PAGE, list.data?.total, (offset) => setFilter({ ...filter, offset }))}
      />
      {canWrite && <AddSuppression context={props.context} onAdded={refresh} />}
    </section>
  );
}

function AddSuppression(props: { context: MailerContext; onAdded(): Promise<unknown> }) {
  const [email, setEmail] = useState('');
  const [scope, setScope] = useState<Scope>('all');
  const add = useMutation({
    mutationFn: () =>
      unwrap(props.context.client.mailer.postSuppressions({ body: { email, scope, reason: 'manual' } })),
    onSuccess: async () => {
      setEmail('');
      await props.onAdded();
    },
  });
  const fields = add.error instanceof CallFailed ? add.error.fieldMessages : {};
  return (
    <section aria-labelledby="add-suppression-title">
      <h3 id="add-suppression-title">Suppress an address</h3>
      <form
        class="inline"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Field
          label="Address to suppress"
          type="email"
          required
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
          error={fields.email ?? (add.error && !fields.email ? messageOf(add.error) : undefined)}
        />
        <Select
          label="Scope"
          value={scope}
          options={['all', 'marketing']}
          onChange={(value) => setScope(value as Scope)}
        />
        <Busy busy={add.isPending} type="submit">
          Suppress
        </Busy>
      </form>
      {add.isSuccess && <Notice kind="success">Suppressed {add.data.email}.</Notice>}
    </section>
  );
}
