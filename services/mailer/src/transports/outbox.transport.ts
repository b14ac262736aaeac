import type { Transport } from './transport';

/**
 * Outside production, for a project with no provider: the email is not sent anywhere; the log
 * row (which keeps the rendered subject, html and text) is the delivery.
 */
export const outboxTransport: Transport = {
  name: 'outbox',
  async send() {
    return { vendorMessageId: null };
  },
};
