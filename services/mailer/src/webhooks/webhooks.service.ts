import type { Knex } from 'knex';
import { AppError, errors } from '@platform/tenancy';
import { updateStatusByVendorId, type EmailStatus } from '../emails/logs.repository';
import { findProviderForWebhook } from '../providers/providers.repository';
import type { ProviderConfig } from '../providers/providers.schemas';
import type { ProvidersService } from '../providers/providers.service';
import { normalizeMailgunId } from '../transports/mailgun.transport';
import { verifyMailgunSignature, verifySendgridSignature } from './webhook-signatures';

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody?: Buffer;
}

/** One status change a vendor reported, for the messages it names. */
interface StatusChange {
  vendorIds: string[];
  status: EmailStatus;
}

/** Which states each reported status may follow: a late "delivered" never undoes a bounce. */
const ALLOWED_FROM: Record<EmailStatus, EmailStatus[]> = {
  sent: [],
  delivered: ['sent'],
  bounced: ['sent', 'delivered'],
  failed: ['sent'],
};

const badSignature = () => new AppError('UNAUTHORIZED', 'Missing or invalid webhook signature');
const str = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

interface MailgunPayload {
  signature?: { timestamp?: unknown; token?: unknown; signature?: unknown };
  'event-data'?: { event?: unknown; severity?: unknown; message?: { headers?: Record<string, unknown> } };
}

function mailgunChanges(config: ProviderConfig, body: unknown): StatusChange[] {
  const payload = (body ?? {}) as MailgunPayload;
  const sig = payload.signature;
  if (!config.webhookSigningKey) throw badSignature();
  if (!sig || !str(sig.timestamp) || !str(sig.token) || !str(sig.signature)) throw badSignature();
  if (
    !verifyMailgunSignature(config.webhookSigningKey, {
      timestamp: sig.timestamp,
      token: sig.token,
      signature: sig.signature,
    })
  ) {
    throw badSignature();
  }
  const data = payload['event-data'];
  const messageId = normalizeMailgunId(
    str(data?.message?.headers?.['message-id']) ? (data!.message!.headers!['message-id'] as string) : null,
  );
  if (!data || !str(data.event)) throw errors.validation('event-data.event is required');
  if (!messageId) return [];
  const status: EmailStatus | undefined =
    data.event === 'delivered'
      ? 'delivered'
      : data.event === 'failed' && data.severity === 'permanent'
        ? 'bounced'
        : data.event === 'rejected'
          ? 'failed'
          : undefined;
  return status ? [{ vendorIds: [messageId], status }] : [];
}

const SENDGRID_STATUS: Record<string, EmailStatus> = { delivered: 'delivered', bounce: 'bounced', dropped: 'failed' };

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendgridChanges(config: ProviderConfig, request: WebhookRequest): StatusChange[] {
  const signature = header(request.headers, 'x-twilio-email-event-webhook-signature');
  const timestamp = header(request.headers, 'x-twilio-email-event-webhook-timestamp');
  if (!config.webhookPublicKey || !signature || !timestamp || !request.rawBody) throw badSignature();
  if (!verifySendgridSignature(config.webhookPublicKey, request.rawBody, signature, timestamp)) throw badSignature();
  if (!Array.isArray(request.body)) throw errors.validation('The event webhook body must be a JSON array of events');
  const changes: StatusChange[] = [];
  for (const event of request.body as { event?: unknown; sg_message_id?: unknown }[]) {
    const status = str(event?.event) ? SENDGRID_STATUS[event.event] : undefined;
    if (!status || !str(event.sg_message_id)) continue;
    // sg_message_id is the X-Message-Id of the send followed by ".<filter id>".
    const id = event.sg_message_id;
    changes.push({ vendorIds: [...new Set([id, id.split('.')[0]])], status });
  }
  return changes;
}

/** Delivery events from the vendors: verified with the provider's own key, then applied to its logs. */
export class WebhooksService {
  constructor(
    private readonly db: Knex,
    private readonly providers: ProvidersService,
  ) {}

  async receive(providerId: string, request: WebhookRequest): Promise<{ received: true; updated: number }> {
    const provider = await findProviderForWebhook(this.db, providerId);
    if (!provider) throw errors.notFound('Provider');
    const config = this.providers.configOf(provider);
    const changes =
      provider.type === 'mailgun' ? mailgunChanges(config, request.body) : sendgridChanges(config, request);
    const tenant = { tenantId: provider.tenantId, projectId: provider.projectId };
    let updated = 0;
    for (const change of changes) {
      updated += await updateStatusByVendorId(
        this.db,
        tenant,
        provider.id,
        change.vendorIds,
        change.status,
        ALLOWED_FROM[change.status],
      );
    }
    return { received: true, updated };
  }
}
