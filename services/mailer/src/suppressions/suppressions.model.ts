/** Why an address is on the list. */
export type SuppressionReason = 'bounce' | 'complaint' | 'unsubscribe' | 'manual';
export const SUPPRESSION_REASONS: SuppressionReason[] = ['bounce', 'complaint', 'unsubscribe', 'manual'];
/** `all`: no mail at all; `marketing`: only mail sent with category marketing is held back. */
export type SuppressionScope = 'all' | 'marketing';

/** An entry to add (the address already lowercased). */
export interface NewSuppression {
  email: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
  /** The vendor event that caused it (e.g. `mailgun:complained`), null when added by hand or one-click. */
  providerEvent: string | null;
  providerId: string | null;
}
