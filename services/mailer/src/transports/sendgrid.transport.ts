import { MailService } from '@sendgrid/mail';
import { VendorSendError, type OutgoingEmail, type Transport } from './transport';

export interface SendgridConfig {
  apiKey: string;
}

const DEFAULT_BASE = 'https://api.sendgrid.com/';

/** The part of @sendgrid/client that MailService keeps as `client`. */
interface SendgridClient {
  setDefaultRequest(key: string, value: unknown): unknown;
}

interface SendgridResponseError {
  code?: number;
  message?: string;
  response?: { body?: { errors?: { message?: string }[] } };
}

/** SendGrid through @sendgrid/mail; one MailService per send, never the shared singleton. */
export function sendgridTransport(config: SendgridConfig, options: { baseUrl?: string; timeoutMs: number }): Transport {
  return {
    name: 'sendgrid',
    async send(email: OutgoingEmail) {
      const mail = new MailService();
      mail.setApiKey(config.apiKey);
      // setApiKey resets the base URL to the public one, so the override must come after it.
      (mail as unknown as { client: SendgridClient }).client.setDefaultRequest(
        'baseUrl',
        options.baseUrl ?? DEFAULT_BASE,
      );
      mail.setTimeout(options.timeoutMs);
      try {
        const [response] = await mail.send({
          from: email.from,
          to: email.to,
          subject: email.subject,
          html: email.html,
          ...(email.text ? { text: email.text } : {}),
          ...(email.headers ? { headers: email.headers } : {}),
        });
        const id = response.headers?.['x-message-id'];
        return { vendorMessageId: typeof id === 'string' && id ? id : null };
      } catch (error) {
        const sgError = error as SendgridResponseError;
        const status = typeof sgError?.code === 'number' && sgError.code >= 100 ? sgError.code : undefined;
        if (!status) throw new VendorSendError('SendGrid could not be reached', true);
        const detail =
          sgError.response?.body?.errors
            ?.map((e) => e.message)
            .filter(Boolean)
            .join('; ') || sgError.message;
        throw new VendorSendError(
          `SendGrid refused the email: ${String(detail ?? status).slice(0, 300)}`,
          false,
          status,
        );
      }
    },
  };
}
