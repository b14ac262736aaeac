/** The Mailer's log: every e-mail with its status, filtered by status, paged; one opened with its attempts. */
import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { unwrap } from '../../api';
import { messageOf, Notice, offsetMoves, Pager, pageRange, Select, when } from '../../ui';
import { EmailContent, EmailTable } from './emails';
import type { MailerContext, MailerSchemas } from './mailer-ui';

type Email = MailerSchemas['EmailLog'];
type Status = Email['status'];
const STATUSES: readonly ('all' | Status)[] = ['all', 'sent', 'delivered', 'bounced', 'failed', 'suppressed'];
const PAGE = 25;

export function Logs(props: { context: MailerContext }) {
  const { client, projectId } = props.context;
  const [filter, setFilter] = useState<{ status: 'all' | Status; offset: number }>({ status: 'all', offset: 0 });
  const [open, setOpen] = useState<string>();
  const logs = useQuery({
    queryKey: ['mail-logs', projectId, filter],
    queryFn: () =>
      unwrap(
        client.mailer.getLogs({
          params: {
            query: {
              limit: PAGE,
              offset: filter.offset,
              ...(filter.status === 'all' ? {} : { status: filter.status }),
            },
          },
        }),
      ),
  });
  const selected = logs.data?.logs.find((email) => email.id === open);
  return (
    <section aria-labelledby="logs-title">
      <h2 id="logs-title">Logs</h2>
      <Select
        label="Status"
        value={filter.status}
        options={STATUSES}
        onChange={(status) => setFilter({ status: status as 'all' | Status, offset: 0 })}
      />
      {logs.error && <Notice kind="error">{messageOf(logs.error)}</Notice>}
      {logs.isLoading && <p>Loading…</p>}
      {logs.data && logs.data.logs.length === 0 && (
        <p>No e-mail{filter.status === 'all' ? '' : ` ${filter.status}`}.</p>
      )}
      {logs.data && logs.data.logs.length > 0 && (
        <EmailTable emails={logs.data.logs} openId={open} onOpen={setOpen} delivery />
      )}
      <Pager
        label="logs"
        position={pageRange(filter.offset, PAGE, logs.data?.total)}
        {...offsetMoves(filter.offset, PAGE, logs.data?.total, (offset) => setFilter({ ...filter, offset }))}
      />
      {selected && <EmailDetail email={selected} />}
    </section>
  );
}

function EmailDetail(props: { email: Email }) {
  const { email } = props;
  return (
    <article class="card" aria-label={`E-mail ${email.subject}`}>
      <h3>{email.subject}</h3>
      <dl class="pairs">
        <dt>To</dt>
        <dd>{email.to}</dd>
        <dt>From</dt>
        <dd>{email.from}</dd>
        <dt>Status</dt>
        <dd>
          {email.status}
          {email.suppressionReason && ` (${email.suppressionReason})`}
        </dd>
        <dt>Source</dt>
        <dd>{email.source}</dd>
        <dt>Message id</dt>
        <dd>
          <code>{email.messageId}</code>
        </dd>
        {email.error && (
          <>
            <dt>Error</dt>
            <dd>{email.error}</dd>
          </>
        )}
      </dl>
      {email.attempts.length > 0 && (
        <>
          <h4>Providers asked</h4>
          <ol>
            {email.attempts.map((attempt) => (
              <li key={attempt.at}>
                {attempt.provider}: {attempt.outcome}
                {attempt.error && ` (${attempt.error})`} at {when(attempt.at)}
              </li>
            ))}
          </ol>
        </>
      )}
      <EmailContent email={email} />
    </article>
  );
}
