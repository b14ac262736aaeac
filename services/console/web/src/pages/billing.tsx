/** Billing of a project: Stripe keys per environment (write-only) with the account status, customers and subscriptions. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { CallFailed, controlPlane, projectClient, unwrap } from '../api';
import { may } from '../roles';
import { Busy, Field, messageOf, Notice, Pager, Select, useCursorPages, when } from '../ui';

type Environment = 'test' | 'live';
type Client = ReturnType<typeof projectClient>;
const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

export function Billing() {
  const { orgId, projectId } = useRoute().params as { orgId: string; projectId: string };
  const client = useMemo(() => projectClient(orgId, projectId), [orgId, projectId]);
  const [environment, setEnvironment] = useState<Environment>('test');
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  return (
    <section>
      <p class="crumbs">
        <a href="/">Organisations</a> / <a href={`/orgs/${orgId}`}>{org.data?.name ?? orgId}</a> /{' '}
        <a href={`/orgs/${orgId}/projects/${projectId}`}>Project</a> / Billing
      </p>
      <h1>Billing</h1>
      <Select
        label="Stripe environment"
        value={environment}
        options={ENVIRONMENTS}
        onChange={(value) => setEnvironment(value as Environment)}
      />
      <StripeKeys client={client} environment={environment} canWrite={may(org.data?.role).writeSettings} />
      <Customers client={client} environment={environment} />
      <Subscriptions client={client} environment={environment} />
    </section>
  );
}

function StripeKeys(props: { client: Client; environment: Environment; canWrite: boolean }) {
  const cache = useQueryClient();
  const { environment } = props;
  // The secret key lives only in this field until sent: never read back, never kept in storage.
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const config = useQuery({
    queryKey: ['stripe-config', props.client, environment],
    queryFn: () => unwrap(props.client.billing.getStripeConfig({ params: { query: { environment } } })),
  });
  const status = useQuery({
    queryKey: ['stripe-status', props.client, environment],
    queryFn: () => unwrap(props.client.billing.getAccountStatus({ params: { query: { environment } } })),
  });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        props.client.billing.putStripeConfig({
          params: { query: { environment } },
          body: { environment, secretKey, ...(webhookSecret ? { webhookSecret } : {}) },
        }),
      ),
    onSuccess: () => {
      setSecretKey('');
      setWebhookSecret('');
      return cache.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('stripe-') });
    },
  });
  const fields = save.error instanceof CallFailed ? save.error.fieldMessages : {};
  return (
    <section aria-labelledby="stripe-title">
      <h2 id="stripe-title">Stripe keys ({environment})</h2>
      {config.error && <Notice kind="error">{messageOf(config.error)}</Notice>}
      {config.data && <Pairs data={config.data as Record<string, unknown>} />}
      <h3>Account status</h3>
      {status.isLoading && <p>Loading…</p>}
      {status.error ? (
        <Notice kind="error">{messageOf(status.error)}</Notice>
      ) : (
        status.data && <Pairs data={status.data as Record<string, unknown>} />
      )}
      {props.canWrite && (
        <form
          class="inline"
          autoComplete="off"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <Field
            label="Stripe secret key"
            type="password"
            autoComplete="off"
            value={secretKey}
            required
            onInput={(event) => setSecretKey(event.currentTarget.value)}
            error={fields.secretKey ?? (save.error && !Object.keys(fields).length ? messageOf(save.error) : undefined)}
          />
          <Field
            label="Webhook signing secret (optional)"
            type="password"
            autoComplete="off"
            value={webhookSecret}
            onInput={(event) => setWebhookSecret(event.currentTarget.value)}
            error={fields.webhookSecret}
          />
          <Busy busy={save.isPending} type="submit">
            Save {environment} keys
          </Busy>
          {save.isSuccess && <Notice kind="success">Saved. The keys are never shown again.</Notice>}
        </form>
      )}
    </section>
  );
}

function Customers(props: { client: Client; environment: Environment }) {
  const { environment } = props;
  const [offset, setOffset] = useState(0);
  const page = useQuery({
    queryKey: ['customers', props.client, environment, offset],
    queryFn: () =>
      unwrap(
        props.client.billing.listCustomers({
          params: { query: { environment, limit: 25, offset } },
        }),
      ),
  });
  const rows = page.data?.customers ?? [];
  return (
    <section aria-labelledby="customers-title">
      <h2 id="customers-title">Customers</h2>
      {page.error && <Notice kind="error">{messageOf(page.error)}</Notice>}
      {page.isLoading && <p>Loading…</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((customer) => (
            <tr key={customer.id}>
              <td>
                <code>{customer.id}</code>
              </td>
              <td>{customer.email ?? '—'}</td>
              <td>{customer.name ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="customers"
        hasPrevious={offset > 0}
        hasNext={Boolean(page.data?.has_more)}
        onPrevious={() => setOffset(Math.max(0, offset - 25))}
        onNext={() => setOffset(offset + 25)}
      />
    </section>
  );
}

function Subscriptions(props: { client: Client; environment: Environment }) {
  const { environment } = props;
  const pages = useCursorPages();
  const { cursor } = pages;
  const page = useQuery({
    queryKey: ['subscriptions', props.client, environment, cursor],
    queryFn: () =>
      unwrap(
        props.client.billing.listSubscriptions({
          params: { query: { environment, limit: 25, ...(cursor ? { cursor } : {}) } },
        }),
      ),
  });
  const rows = page.data?.subscriptions ?? [];
  return (
    <section aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title">Subscriptions</h2>
      {page.error && <Notice kind="error">{messageOf(page.error)}</Notice>}
      {page.isLoading && <p>Loading…</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Customer</th>
            <th scope="col">Status</th>
            <th scope="col">Period end</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((subscription) => (
            <tr key={subscription.id}>
              <td>
                <code>{subscription.id}</code>
              </td>
              <td>{subscription.customerEmail ?? subscription.customerId ?? '—'}</td>
              <td>{subscription.status}</td>
              <td>{when(subscription.currentPeriodEnd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="subscriptions" {...pages.moves(page.data?.nextCursor)} />
    </section>
  );
}

/** Scalar fields of an answer as a definition list (nested objects as JSON). */
function Pairs(props: { data: Record<string, unknown> }) {
  return (
    <dl class="pairs">
      {Object.entries(props.data).map(([name, value]) => (
        <>
          <dt key={`${name}-k`}>{name}</dt>
          <dd key={`${name}-v`}>
            <code>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</code>
          </dd>
        </>
      ))}
    </dl>
  );
}
