import type { MailerConfig } from './config';
import type { SendingDeps } from './emails/emails.service';

/** What the HTTP side and the auth-email consumer share, built once in `build`. */
export interface MailerShared {
  config: MailerConfig;
  /** The render threads, the provider cool-downs and the send slots, with what sending reads. */
  sending: SendingDeps;
}
