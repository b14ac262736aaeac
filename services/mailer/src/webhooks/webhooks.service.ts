import type { Knex } from 'knex';
import { AppError, errors } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import type { EmailStatus } from '../emails/emails.model';
import { applyVendorStatus } from '../emails/logs.service';
import type { ProviderConfig } from '../providers/providers.schemas';
import { providerForWebhook } from '../providers/providers.service';
import { normalizeMailgunId } from '../transports/mailgun.transport';
import type { NewSuppression } from '../suppressions/suppressions.model';
import { suppress } from '../suppressions/suppressions.service';
import { pruneExpiredReceipts, recordReceipts } from './webhook-receipts.repository';
import { verifyMailgunSignature, verifySendgridSignature } from './webhook-signatures';
import { isWithinTolerance, windowEndOf } from './webhook-window';

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent, unparsed: SendGrid signs these bytes, and they are parsed only once that signature holds. */
  rawBody: Buffer;
}

function parsedBody(raw: Buffer): unknown {
  try {
    return raw.length ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
  } catch {
    throw errors.validation('Request body is not valid JSON');
  }
}

/** One event a vendor reported: a status change for the messages it names, and/or an address to suppress. */
interface StatusChange {
  vendorIds: string[];
  status?: EmailStatus;
  /** Hard bounces, complaints and unsubscribes put the recipient on the suppression list. */
  suppress?: Omit<NewSuppression, 'providerId'>;
  /** SendGrid's sg_event_id: the change is applied once per provider however often it arrives. */
  eventId?: string;
}

/** A request whose signature and timestamp were checked, and what it asks for. */
interface VerifiedDelivery {
  /** Mailgun's signed token: a request whose token was already seen is refused whole. */
  token?: string;
  changes: StatusChange[];
  /** How long the token or the event ids must be remembered to recognise a second delivery. */
  rememberUntil: Date;
}

/** Which states each reported status may follow: a late "delivered" never undoes a bounce. */
const ALLOWED_FROM: Record<EmailStatus, EmailStatus[]> = {
  sent: [],
  delivered: ['sent'],
  bounced: ['sent', 'delivered'],
  failed: ['sent'],
  suppressed: [],
};

/** Mailgun tokens are 50 characters and SendGrid event ids at most 100; longer is not the vendor. */
const MAX_RECEIPT_ID_LENGTH = 255;
/** SendGrid redelivers an event for up to 24 hours after it occurred, so its id is kept that long. */
const SENDGRID_REDELIVERY_MS = 24 * 60 * 60 * 1000;

// Every refusal is the same 401 as a bad signature: the request is not one the vendor sent just now.
const badSignature = () => new AppError('UNAUTHORIZED', 'Missing or invalid webhook signature');
const outsideWindow = () =>
  new AppError('UNAUTHORIZED', 'Webhook timestamp is outside the accepted window (replayed or delayed request)');
const replayed = () => new AppError('UNAUTHORIZED', 'Webhook already received (replayed request)');

const str = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const receiptId = (value: unknown): value is string => str(value) && value.length <= MAX_RECEIPT_ID_LENGTH;

interface MailgunPayload {
  signature?: { timestamp?: unknown; token?: unknown; signature?: unknown };
  'event-data'?: {
    event?: unknown;
    severity?: unknown;
    recipient?: unknown;
    message?: { headers?: Record<string, unknown> };
  };
}

/** Which vendor events suppress the recipient: hard bounces and complaints stop all mail, unsubscribes marketing mail. */
function suppressionOf(
  vendor: 'mailgun' | 'sendgrid',
  event: string,
  recipient: unknown,
  reason: NewSuppression['reason'] | undefined,
): StatusChange['suppress'] {
  if (!reason || !str(recipient) || recipient.length > 320 || !recipient.includes('@')) return undefined;
  return {
    email: recipient.trim().toLowerCase(),
    scope: reason === 'unsubscribe' ? 'marketing' : 'all',
    reason,
    providerEvent: `${vendor}:${event}`,
  };
}

const MAILGUN_SUPPRESSION: Record<string, NewSuppression['reason']> = {
  complained: 'complaint',
  unsubscribed: 'unsubscribe',
};

function mailgunDelivery(config: ProviderConfig, body: unknown, toleranceSeconds: number): VerifiedDelivery {
  const payload = (body ?? {}) as MailgunPayload;
  const sig = payload.signature;
  if (!config.webhookSigningKey) throw badSignature();
  if (!sig || !str(sig.timestamp) || !receiptId(sig.token) || !str(sig.signature)) throw badSignature();
  if (
    !verifyMailgunSignature(config.webhookSigningKey, {
      timestamp: sig.timestamp,
      token: sig.token,
      signature: sig.signature,
    })
  ) {
    throw badSignature();
  }
  if (!isWithinTolerance(sig.timestamp, toleranceSeconds)) throw outsideWindow();
  const delivery = { token: sig.token, rememberUntil: windowEndOf(sig.timestamp, toleranceSeconds) };
  const data = payload['event-data'];
  const messageId = normalizeMailgunId(
    str(data?.message?.headers?.['message-id']) ? (data!.message!.headers!['message-id'] as string) : null,
  );
  if (!data || !str(data.event)) throw errors.validation('event-data.event is required');
  const hardBounce = data.event === 'failed' && data.severity === 'permanent';
  const suppress = suppressionOf(
    'mailgun',
    data.event,
    data.recipient,
    hardBounce ? 'bounce' : MAILGUN_SUPPRESSION[data.event],
  );
  if (!messageId) return { ...delivery, changes: suppress ? [{ vendorIds: [], suppress }] : [] };
  const status: EmailStatus | undefined =
    data.event === 'delivered'
      ? 'delivered'
      : data.event === 'failed' && data.severity === 'permanent'
        ? 'bounced'
        : data.event === 'rejected'
          ? 'failed'
          : undefined;
  return { ...delivery, changes: status || suppress ? [{ vendorIds: [messageId], status, suppress }] : [] };
}

const SENDGRID_STATUS: Record<string, EmailStatus> = { delivered: 'delivered', bounce: 'bounced', dropped: 'failed' };
const SENDGRID_SUPPRESSION: Record<string, NewSuppression['reason']> = {
  spamreport: 'complaint',
  unsubscribe: 'unsubscribe',
  group_unsubscribe: 'unsubscribe',
};

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendgridDelivery(config: ProviderConfig, request: WebhookRequest, toleranceSeconds: number): VerifiedDelivery {
  const signature = header(request.headers, 'x-twilio-email-event-webhook-signature');
  const timestamp = header(request.headers, 'x-twilio-email-event-webhook-timestamp');
  if (!config.webhookPublicKey || !signature || !timestamp || !request.rawBody.length) throw badSignature();
  if (!verifySendgridSignature(config.webhookPublicKey, request.rawBody, signature, timestamp)) throw badSignature();
  if (!isWithinTolerance(timestamp, toleranceSeconds)) throw outsideWindow();
  const events = parsedBody(request.rawBody);
  if (!Array.isArray(events)) throw errors.validation('The event webhook body must be a JSON array of events');
  const changes: StatusChange[] = [];
  type SendgridEvent = {
    event?: unknown;
    sg_message_id?: unknown;
    sg_event_id?: unknown;
    email?: unknown;
    type?: unknown;
  };
  for (const event of events as SendgridEvent[]) {
    if (
      !str(event?.event) ||
      (!Object.hasOwn(SENDGRID_STATUS, event.event) && !Object.hasOwn(SENDGRID_SUPPRESSION, event.event))
    )
      continue;
    const status = Object.hasOwn(SENDGRID_STATUS, event.event) ? SENDGRID_STATUS[event.event] : undefined;
    // A `blocked` bounce is SendGrid's temporary kind: the address itself is fine.
    const hardBounce = event.event === 'bounce' && event.type !== 'blocked';
    const suppress = suppressionOf(
      'sendgrid',
      event.event,
      event.email,
      hardBounce
        ? 'bounce'
        : Object.hasOwn(SENDGRID_SUPPRESSION, event.event)
          ? SENDGRID_SUPPRESSION[event.event]
          : undefined,
    );
    // Every real event has an sg_event_id; one without cannot be applied exactly once, so it is skipped.
    if (!receiptId(event.sg_event_id)) continue;
    // sg_message_id is the X-Message-Id of the send followed by ".<filter id>".
    const id = str(event.sg_message_id) ? event.sg_message_id : undefined;
    const vendorIds = id ? [...new Set([id, id.split('.')[0]])] : [];
    if (!vendorIds.length && !suppress) continue;
    changes.push({ vendorIds, status, suppress, eventId: event.sg_event_id });
  }
  const windowEnd = windowEndOf(timestamp, toleranceSeconds).getTime();
  return { changes, rememberUntil: new Date(Math.max(windowEnd, Date.now() + SENDGRID_REDELIVERY_MS)) };
}

/**
 * Delivery events from the vendors: verified with the provider's own key, refused when signed
 * outside the tolerance window or already received, then applied to the provider's logs.
 */
export async function receiveWebhook(
  db: Knex,
  secrets: SecretBox,
  toleranceSeconds: number,
  providerId: string,
  request: WebhookRequest,
): Promise<{ received: true; updated: number }> {
  const provider = await providerForWebhook(db, secrets, providerId);
  if (!provider) throw errors.notFound('Provider');
  const delivery =
    provider.type === 'mailgun'
      ? mailgunDelivery(provider.config, parsedBody(request.rawBody), toleranceSeconds)
      : sendgridDelivery(provider.config, request, toleranceSeconds);
  const { tenant } = provider;
  const window = { expiresAt: delivery.rememberUntil, now: new Date() };
  await pruneExpiredReceipts(db, tenant, provider.id, window.now);
  // The receipts and the status changes commit together: a refused or failed request leaves neither.
  const updated = await db.transaction(async (trx) => {
    if (delivery.token) {
      const fresh = await recordReceipts(trx, tenant, provider.id, [delivery.token], window);
      if (!fresh.size) throw replayed();
    }
    const eventIds = delivery.changes.flatMap((change) => (change.eventId ? [change.eventId] : []));
    const freshEvents = await recordReceipts(trx, tenant, provider.id, eventIds, window);
    let count = 0;
    for (const change of delivery.changes) {
      // An event id seen before, or repeated within this batch, changes nothing.
      if (change.eventId && !freshEvents.delete(change.eventId)) continue;
      if (change.suppress) await suppress(trx, tenant, [{ ...change.suppress, providerId: provider.id }]);
      if (!change.status) continue;
      count += await applyVendorStatus(trx, tenant, provider.id, {
        vendorIds: change.vendorIds,
        status: change.status,
        from: ALLOWED_FROM[change.status],
      });
    }
    return count;
  });
  return { received: true, updated };
}
