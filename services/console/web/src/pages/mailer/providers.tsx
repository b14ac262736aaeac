/** E-mail providers: the failover order (move up or down, make the default), a test send each, and a new one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, Select, when } from '../../ui';
import type { MailerContext, MailerSchemas } from './mailer-ui';

type Provider = MailerSchemas['Provider'];
type Vendor = 'mailgun' | 'sendgrid';
const PRIORITY_STEP = 10;

/** The order a send tries them in (the service's rule): priority, then the default, then the oldest. */
function failoverOrder(providers: Provider[]): Provider[] {
  return [...providers].sort(
    (a, b) =>
      a.priority - b.priority ||
      Number(b.isDefault) - Number(a.isDefault) ||
      a.createdAt.localeCompare(b.createdAt) ||
      a.id.localeCompare(b.id),
  );
}

export function Providers(props: { context: MailerContext }) {
  const { client, projectId, canWrite } = props.context;
  const cache = useQueryClient();
  const list = useQuery({
    queryKey: ['mail-providers', projectId],
    queryFn: () => unwrap(client.mailer.getProviders()),
  });
  const refresh = () => cache.invalidateQueries({ queryKey: ['mail-providers', projectId] });
  const update = useMutation({
    mutationFn: (changes: { id: string; body: { isDefault?: true; priority?: number } }[]) =>
      Promise.all(
        changes.map((change) =>
          unwrap(
            client.mailer.patchProvidersByProviderId({
              params: { path: { provider_id: change.id } },
              body: change.body,
            }),
          ),
        ),
      ),
    onSettled: refresh,
  });
  const ordered = failoverOrder(list.data?.providers ?? []);
  /** Moves one provider by a place and numbers the whole order again, so equal priorities cannot tie. */
  const move = (index: number, by: -1 | 1) => {
    const next = [...ordered];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    update.mutate(
      next
        .map((provider, place) => ({ id: provider.id, priority: (place + 1) * PRIORITY_STEP, old: provider.priority }))
        .filter((entry) => entry.priority !== entry.old)
        .map((entry) => ({ id: entry.id, body: { priority: entry.priority } })),
    );
  };
  return (
    <section aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <p class="hint">
        A send tries them in this order and moves on when one fails. With none, this development install keeps each
        e-mail in the log (the dev inbox).
      </p>
      {list.error && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {update.error && <Notice kind="error">Not changed: {messageOf(update.error)}</Notice>}
      {update.isPending && <p role="status">Saving the order…</p>}
      {list.data && ordered.length === 0 && <p>No provider yet.</p>}
      {ordered.length > 0 && (
        <table>
          <caption class="visually-hidden">Providers in failover order</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Name</th>
              <th scope="col">Vendor</th>
              <th scope="col">Priority</th>
              <th scope="col">Added</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {ordered.map((provider, index) => (
              <tr key={provider.id}>
                <td>{index + 1}</td>
                <td>
                  {provider.name}
                  {provider.isDefault && (
                    <>
                      {' '}
                      <span class="badge">default</span>
                    </>
                  )}
                </td>
                <td>{provider.type}</td>
                <td>{provider.priority}</td>
                <td>{when(provider.createdAt)}</td>
                {canWrite && (
                  <td class="actions">
                    <button
                      type="button"
                      disabled={index === 0 || update.isPending}
                      onClick={() => move(index, -1)}
                      aria-label={`Move ${provider.name} up`}
                    >
                      Up
                    </button>
                    <button
                      type="button"
                      disabled={index === ordered.length - 1 || update.isPending}
                      onClick={() => move(index, 1)}
                      aria-label={`Move ${provider.name} down`}
                    >
                      Down
                    </button>
                    {!provider.isDefault && (
                      <button
                        type="button"
                        disabled={update.isPending}
                        onClick={() => update.mutate([{ id: provider.id, body: { isDefault: true } }])}
                      >
                        Make {provider.name} the default
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && ordered.length > 0 && <TestProvider context={props.context} providers={ordered} />}
      {canWrite && <NewProvider context={props.context} onAdded={refresh} />}
    </section>
  );
}

function TestProvider(props: { context: MailerContext; providers: Provider[] }) {
  const { client } = props.context;
  const [providerId, setProviderId] = useState(props.providers[0].id);
  const [to, setTo] = useState('');
  const test = useMutation({
    mutationFn: () =>
      unwrap(
        client.mailer.postProvidersByProviderIdTest({ params: { path: { provider_id: providerId } }, body: { to } }),
      ),
  });
  const fields = test.error instanceof CallFailed ? test.error.fieldMessages : {};
  const chosen = props.providers.find((provider) => provider.id === providerId) ?? props.providers[0];
  return (
    <section aria-labelledby="test-provider-title">
      <h3 id="test-provider-title">Test a provider</h3>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          test.mutate();
        }}
      >
        <div class="field">
          <label for="test-provider">Provider</label>
          <select id="test-provider" value={chosen.id} onChange={(event) => setProviderId(event.currentTarget.value)}>
            {props.providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Test address"
          type="email"
          required
          value={to}
          onInput={(event) => setTo(event.currentTarget.value)}
          error={fields.to}
        />
        <Busy busy={test.isPending} type="submit">
          Send provider test
        </Busy>
      </form>
      {test.error && !fields.to && <Notice kind="error">{messageOf(test.error)}</Notice>}
      {test.data && (
        <Notice kind={test.data.success ? 'success' : 'error'}>
          {test.data.success ? 'The provider took the e-mail: ' : 'The provider refused: '}
          {test.data.message}
        </Notice>
      )}
    </section>
  );
}

const EMPTY = {
  name: '',
  type: 'mailgun' as Vendor,
  apiKey: '',
  domain: '',
  region: 'us',
  fromEmail: '',
  isDefault: false,
};

function NewProvider(props: { context: MailerContext; onAdded(): Promise<unknown> }) {
  const { client } = props.context;
  // The API key stays in this form until sent; it is never read back nor stored in the page.
  const [draft, setDraft] = useState(EMPTY);
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        client.mailer.postProviders({
          body: {
            name: draft.name,
            type: draft.type,
            isDefault: draft.isDefault,
            config: {
              apiKey: draft.apiKey,
              ...(draft.type === 'mailgun' ? { domain: draft.domain, region: draft.region as 'us' | 'eu' } : {}),
              ...(draft.fromEmail ? { fromEmail: draft.fromEmail } : {}),
            },
          },
        }),
      ),
    onSuccess: async () => {
      setDraft(EMPTY);
      await props.onAdded();
    },
  });
  const fields = add.error instanceof CallFailed ? add.error.fieldMessages : {};
  const set = (name: 'name' | 'apiKey' | 'domain' | 'fromEmail') => (event: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [name]: event.currentTarget.value });
  return (
    <section aria-labelledby="new-provider-title">
      <h3 id="new-provider-title">Add a provider</h3>
      <form
        autoComplete="off"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Field label="Provider name" required value={draft.name} onInput={set('name')} error={fields.name} />
        <Select
          label="Vendor"
          value={draft.type}
          options={['mailgun', 'sendgrid']}
          onChange={(type) => setDraft({ ...draft, type: type as Vendor })}
        />
        <Field
          label="API key"
          type="password"
          autoComplete="off"
          required
          value={draft.apiKey}
          onInput={set('apiKey')}
          error={fields.apiKey}
        />
        {draft.type === 'mailgun' && (
          <>
            <Field label="Sending domain" required value={draft.domain} onInput={set('domain')} error={fields.domain} />
            <Select
              label="Mailgun region"
              value={draft.region}
              options={['us', 'eu']}
              onChange={(region) => setDraft({ ...draft, region })}
            />
          </>
        )}
        <Field
          label="From address (optional)"
          type="email"
          value={draft.fromEmail}
          onInput={set('fromEmail')}
          error={fields.fromEmail}
        />
        <div class="field check">
          <label>
            <input
              type="checkbox"
              checked={draft.isDefault}
              onChange={(event) => setDraft({ ...draft, isDefault: event.currentTarget.checked })}
            />{' '}
            Make it the default
          </label>
        </div>
        {add.error && !Object.keys(fields).length && <Notice kind="error">{messageOf(add.error)}</Notice>}
        {add.isSuccess && <Notice kind="success">Added. Its key is never shown again.</Notice>}
        <Busy busy={add.isPending} type="submit">
          Add provider
        </Busy>
      </form>
    </section>
  );
}
