import FormData from 'form-data';
import Mailgun from 'mailgun.js';
import { VendorSendError, type OutgoingEmail, type Transport } from './transport';

export interface MailgunConfig {
  apiKey: string;
  domain: string;
  region?: 'us' | 'eu';
}

const REGION_URL = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' };

interface MailgunApiError {
  status?: number;
  message?: string;
  details?: string;
}

/** Mailgun through mailgun.js; a fresh client per send so no state is shared between projects. */
export function mailgunTransport(config: MailgunConfig, options: { baseUrl?: string; timeoutMs: number }): Transport {
  return {
    name: 'mailgun',
    async send(email: OutgoingEmail) {
      const client = new Mailgun(FormData).client({
        username: 'api',
        key: config.apiKey,
        url: options.baseUrl ?? REGION_URL[config.region ?? 'us'],
        timeout: options.timeoutMs,
      });
      try {
        const result = await client.messages.create(config.domain, {
          from: email.from,
          to: [email.to],
          subject: email.subject,
          html: email.html,
          ...(email.text ? { text: email.text } : {}),
          // Mailgun takes custom headers as `h:<Name>` fields.
          ...Object.fromEntries(Object.entries(email.headers ?? {}).map(([name, value]) => [`h:${name}`, value])),
        });
        return { vendorMessageId: normalizeMailgunId(result.id) };
      } catch (error) {
        const apiError = error as MailgunApiError;
        const status = typeof apiError?.status === 'number' ? apiError.status : undefined;
        if (!status) throw new VendorSendError('Mailgun could not be reached', true);
        const detail = apiError.details || apiError.message || `status ${status}`;
        throw new VendorSendError(`Mailgun refused the email: ${String(detail).slice(0, 300)}`, false, status);
      }
    },
  };
}

/** Mailgun answers `<id@domain>` but its webhooks carry `id@domain`. */
export function normalizeMailgunId(id: string | undefined | null): string | null {
  if (!id) return null;
  return id.trim().replace(/^<|>$/g, '');
}
