/** One email as a transport hands it to a vendor. */
export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string | null;
  /** Extra headers (List-Unsubscribe for marketing mail). */
  headers?: Record<string, string>;
}

/** `none`: the log of an email that no transport was given (its recipient is suppressed). */
export type TransportName = 'mailgun' | 'sendgrid' | 'outbox' | 'none';

export interface Transport {
  name: TransportName;
  /** Resolves with the vendor's message id; rejects with a VendorSendError. */
  send(email: OutgoingEmail): Promise<{ vendorMessageId: string | null }>;
}

/** A vendor refused or could not be reached; `message` is safe to show (never credentials). */
export class VendorSendError extends Error {
  constructor(
    message: string,
    readonly unreachable: boolean,
    readonly vendorStatus?: number,
  ) {
    super(message);
    this.name = 'VendorSendError';
  }
}
