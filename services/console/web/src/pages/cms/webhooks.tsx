/** Content webhooks: the project's subscriptions, a new one (URL and events), removal, and each one's deliveries. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, when } from '../../ui';
import { CallError } from './call-error';
import { CONTENT_EVENTS, useCms, type ContentEvent } from './cms-context';
import { useLatestState } from './latest-state';

export function Webhooks() {
  const { client, projectId, writes } = useCms();
  const cache = useQueryClient();
  const [openId, setOpenId] = useState<string>();
  const hooks = useQuery({
    queryKey: ['cms-webhooks', projectId],
    queryFn: () => unwrap(client.cms.getWebhooks()),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(client.cms.deleteWebhooksByWebhookId({ params: { path: { webhook_id: id } } })),
    onSuccess: () => cache.invalidateQueries({ queryKey: ['cms-webhooks', projectId] }),
  });
  return (
    <section>
      <h1>Content webhooks</h1>
      <p class="hint">
        Each content change is POSTed to the URLs subscribed to its event, signed with the project&apos;s webhook
        secret.
      </p>
      {hooks.error && <Notice kind="error">{messageOf(hooks.error)}</Notice>}
      {remove.error && <Notice kind="error">{messageOf(remove.error)}</Notice>}
      {remove.isSuccess && <Notice kind="success">Webhook removed.</Notice>}
      {hooks.isPending && <p>Loading…</p>}
      {hooks.data && (
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {hooks.data.webhooks.map((hook) => (
              <tr key={hook.id}>
                <td>
                  <code>{hook.url}</code>
                </td>
                <td>{hook.events.join(', ')}</td>
                <td>{when(hook.createdAt)}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="link"
                    onClick={() => setOpenId(openId === hook.id ? undefined : hook.id)}
                  >
                    Deliveries of {hook.url}
                  </button>
                  {writes && (
                    <Busy
                      busy={remove.isPending && remove.variables === hook.id}
                      type="button"
                      class="danger"
                      aria-label={`Remove webhook ${hook.url}`}
                      onClick={() => remove.mutate(hook.id)}
                    >
                      Remove
                    </Busy>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hooks.data?.webhooks.length === 0 && <p>No webhook yet.</p>}
      {openId && <Deliveries webhookId={openId} />}
      {writes && <NewWebhook />}
    </section>
  );
}

function NewWebhook() {
  const { client, projectId } = useCms();
  const cache = useQueryClient();
  const [url, setUrl, latestUrl] = useLatestState('');
  const [events, setEvents] = useState<ContentEvent[]>(['content.published']);
  const add = useMutation({
    mutationFn: () => unwrap(client.cms.postWebhooks({ body: { url: latestUrl.current, events } })),
    onSuccess: async () => {
      setUrl('');
      await cache.invalidateQueries({ queryKey: ['cms-webhooks', projectId] });
    },
  });
  const fieldErrors = add.error instanceof CallFailed ? add.error.fieldMessages : {};
  return (
    <section aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">Add a webhook</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Field
          label="URL (https)"
          type="url"
          required
          value={url}
          error={fieldErrors.url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <fieldset>
          <legend>Events</legend>
          {CONTENT_EVENTS.map((name) => (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) =>
                  setEvents(event.currentTarget.checked ? [...events, name] : events.filter((other) => other !== name))
                }
              />{' '}
              {name}
            </label>
          ))}
        </fieldset>
        {add.error && <CallError error={add.error} />}
        {add.isSuccess && <Notice kind="success">Webhook added.</Notice>}
        <Busy busy={add.isPending} type="submit" disabled={events.length === 0}>
          Add webhook
        </Busy>
      </form>
    </section>
  );
}

function Deliveries(props: { webhookId: string }) {
  const { client, projectId, writes } = useCms();
  const cache = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['cms-deliveries', projectId, props.webhookId],
    queryFn: () =>
      unwrap(
        client.cms.getWebhooksByWebhookIdDeliveries({
          params: { path: { webhook_id: props.webhookId }, query: { limit: 20 } },
        }),
      ),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        client.cms.postWebhooksByWebhookIdDeliveriesByDeliveryIdRedeliver({
          params: { path: { webhook_id: props.webhookId, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: () => cache.invalidateQueries({ queryKey: ['cms-deliveries', projectId, props.webhookId] }),
  });
  if (deliveries.error) return <Notice kind="error">{messageOf(deliveries.error)}</Notice>;
  if (!deliveries.data) return <p>Loading…</p>;
  return (
    <section aria-labelledby="deliveries-title" class="card">
      <h2 id="deliveries-title">Latest deliveries</h2>
      {redeliver.error && <Notice kind="error">{messageOf(redeliver.error)}</Notice>}
      {redeliver.isSuccess && <Notice kind="success">Delivering again.</Notice>}
      {deliveries.data.deliveries.length === 0 ? (
        <p>No delivery yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">When</th>
              {writes && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {deliveries.data.deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{delivery.event}</td>
                <td>{delivery.status}</td>
                <td>{delivery.attemptCount}</td>
                <td>{delivery.attempts[delivery.attempts.length - 1]?.error ?? '—'}</td>
                <td>{when(delivery.createdAt)}</td>
                {writes && (
                  <td>
                    {delivery.status !== 'pending' && (
                      <Busy
                        busy={redeliver.isPending && redeliver.variables === delivery.id}
                        type="button"
                        aria-label={`Deliver ${delivery.event} again`}
                        onClick={() => redeliver.mutate(delivery.id)}
                      >
                        Deliver again
                      </Busy>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
