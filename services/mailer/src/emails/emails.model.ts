/** Where an email stands: handed over, then as the vendor reports it; or held back by the suppression list. */
export type EmailStatus = 'sent' | 'delivered' | 'bounced' | 'failed' | 'suppressed';
export const EMAIL_STATUSES: EmailStatus[] = ['sent', 'delivered', 'bounced', 'failed', 'suppressed'];
