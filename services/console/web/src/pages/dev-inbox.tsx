/** The dev inbox: the e-mails the platform kept in the Mailer's outbox because no provider is configured. */
import type { mailer } from '@platform/client';
import { useQuery } from '@tanstack/preact-query';
import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { CallFailed, consoleServer, projectClient, unwrap } from '../api';
import { messageOf, Notice, offsetMoves, Pager, when } from '../ui';
import { EmailContent, EmailTable } from './mailer/emails';

type LogPage = mailer.operations['getLogs']['responses'][200]['content']['application/json'];
type Email = LogPage['logs'][number];
const PAGE = 20;

/** Console addresses for the account links an e-mail carries (whatever host its template names). */
function consoleLinks(email: Email): { label: string; href: string }[] {
  const links: { label: string; href: string }[] = [];
  for (const match of (email.text ?? email.html ?? '').matchAll(/https?:\/\/[^\s"'<>]+/g)) {
    const url = new URL(match[0].replace(/&amp;/g, '&'));
    const token = url.searchParams.get('token');
    if (!token) continue;
    for (const page of ['verify-email', 'reset-password', 'accept-invitation'])
      if (url.pathname.endsWith(page))
        links.push({ label: `Open ${page.replace('-', ' ')}`, href: `/${page}?token=${encodeURIComponent(token)}` });
  }
  return links;
}

/** The console's own e-mails, or with `?orgId=&projectId=` a project's (its test sends among them), from its Mailer log. */
export function DevInbox() {
  const { orgId, projectId } = useRoute().query as { orgId?: string; projectId?: string };
  const project = useMemo(() => (orgId && projectId ? projectClient(orgId, projectId) : undefined), [orgId, projectId]);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string>();
  const inbox = useQuery({
    queryKey: ['dev-inbox', orgId, projectId, offset],
    queryFn: async () => {
      if (project) return unwrap(project.mailer.getLogs({ params: { query: { limit: PAGE, offset } } }));
      const response = await consoleServer(`/api/dev-inbox?limit=${PAGE}&offset=${offset}`);
      if (!response.ok) throw new CallFailed(response.status);
      return (await response.json()) as LogPage;
    },
    refetchInterval: 3000,
  });
  const selected = inbox.data?.logs.find((email) => email.id === open);
  return (
    <section>
      <h1>Dev inbox</h1>
      <p>
        With no mail provider configured, the platform keeps the e-mails it would have sent (sign-up verification,
        password reset, invitations). They are listed here on development machines only.
      </p>
      {project ? (
        <p>
          Showing the e-mails of project <code>{projectId}</code>. <a href="/dev-inbox">Show the console's own</a>
        </p>
      ) : (
        <p class="hint">A project's e-mails (test sends among them) open from its Mailer page.</p>
      )}
      {inbox.error && <Notice kind="error">{messageOf(inbox.error)}</Notice>}
      {inbox.data && inbox.data.logs.length === 0 && <p>No e-mail yet.</p>}
      {inbox.data && inbox.data.logs.length > 0 && (
        <EmailTable emails={inbox.data.logs} openId={open} onOpen={setOpen} />
      )}
      {inbox.data && <Pager label="e-mails" {...offsetMoves(offset, PAGE, inbox.data.total, setOffset)} />}
      {selected && (
        <article class="card" aria-label="Selected e-mail">
          <h2>{selected.subject}</h2>
          <p>
            To {selected.to}, from {selected.from}, {when(selected.sentAt)}
          </p>
          <p class="actions">
            {(project ? [] : consoleLinks(selected)).map((link) => (
              <a key={link.href} class="button" href={link.href}>
                {link.label}
              </a>
            ))}
          </p>
          <EmailContent email={selected} />
        </article>
      )}
    </section>
  );
}
