/** How the Mailer's logs and the dev inbox show the e-mails of a Mailer log: their table and one e-mail's content. */
import { when } from '../../ui';
import type { MailerSchemas } from './mailer-ui';

type Email = MailerSchemas['EmailLog'];

/** Newest first, each opened by its subject; with `delivery`, how each e-mail went (its status and the provider that took it) too. */
export function EmailTable(props: { emails: Email[]; openId?: string; onOpen(id: string): void; delivery?: boolean }) {
  return (
    <table>
      <caption class="visually-hidden">E-mails, newest first</caption>
      <thead>
        <tr>
          <th scope="col">To</th>
          <th scope="col">Subject</th>
          {props.delivery && (
            <>
              <th scope="col">Status</th>
              <th scope="col">Provider</th>
            </>
          )}
          <th scope="col">Sent</th>
        </tr>
      </thead>
      <tbody>
        {props.emails.map((email) => (
          <tr key={email.id} aria-current={email.id === props.openId ? 'true' : undefined}>
            <td>{email.to}</td>
            <td>
              <button type="button" class="link" onClick={() => props.onOpen(email.id)}>
                {email.subject}
              </button>
            </td>
            {props.delivery && (
              <>
                <td>{email.status}</td>
                <td>{email.provider}</td>
              </>
            )}
            <td>{when(email.sentAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The e-mail as its recipient would read it: the HTML in a sandbox, or else the text. */
export function EmailContent(props: { email: Email }) {
  const { html, text } = props.email;
  if (html) return <iframe title="E-mail content" sandbox="" srcdoc={html} class="email" />;
  return text ? <pre tabIndex={0}>{text}</pre> : null;
}
