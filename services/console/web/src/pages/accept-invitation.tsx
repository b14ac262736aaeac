/** Accepting an invitation: signed in with the invited address, one click. */
import { useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { controlPlane, unwrap } from '../api';
import { useMe } from '../session';
import { Busy, messageOf, Notice } from '../ui';

export function AcceptInvitation() {
  const { query, url, route } = useLocation();
  const me = useMe();
  const cache = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (me.isLoading) return <p>Loading…</p>;
  if (!me.data)
    return (
      <section class="narrow">
        <h1>Accept the invitation</h1>
        <p>
          <a href={`/sign-in?next=${encodeURIComponent(url)}`}>Sign in</a> or <a href="/sign-up">create an account</a>{' '}
          with the address the invitation was sent to, then open the link again.
        </p>
      </section>
    );
  return (
    <section class="narrow">
      <h1>Accept the invitation</h1>
      <p>You are signed in as {me.data.email}.</p>
      {error && <Notice kind="error">{error}</Notice>}
      <Busy
        busy={busy}
        type="button"
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            const accepted = await unwrap(controlPlane.acceptInvitation({ body: { token: query.token ?? '' } }));
            await cache.invalidateQueries();
            const orgId = (accepted as { organisationId?: string; organisation?: { id: string } }).organisationId;
            route(orgId ? `/orgs/${orgId}` : '/');
          } catch (failure) {
            setError(messageOf(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        Accept invitation
      </Busy>
    </section>
  );
}
