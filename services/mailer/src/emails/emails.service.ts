import type { Knex } from 'knex';
import { AppError, errors, toIso, type Logger } from '@platform/tenancy';
import type { ProvidersService, Route } from '../providers/providers.service';
import type { Tenant } from '../shared';
import type { TemplatesService } from '../templates/templates.service';
import { VendorSendError, type OutgoingEmail } from '../transports/transport';
import { insertLog, type LogRow } from './logs.repository';
import type { SendEmailInput } from './emails.schemas';

export interface SentEmail {
  messageId: string;
  status: string;
  to: string;
  sentAt: string;
}

export interface DeliveryMeta {
  source: string;
  templateId?: string | null;
  /** The event an auth email answers; a second row for it is never written. */
  eventId?: string;
}

export interface Attempt {
  vendorMessageId: string | null;
  failure?: VendorSendError;
}

export interface Delivery {
  /** Undefined only when a row for meta.eventId already existed. */
  log?: LogRow;
  failure?: VendorSendError;
}

/** A failed vendor call as the client sees it: 500 when refused, 502 when unreachable. */
export function vendorFailure(failure: VendorSendError): AppError {
  return failure.unreachable ? errors.vendorUnreachable(failure.message) : errors.vendor(failure.message);
}

export class EmailsService {
  constructor(
    private readonly db: Knex,
    private readonly providers: ProvidersService,
    private readonly templates: TemplatesService,
    private readonly logger: Logger,
  ) {}

  async send(tenant: Tenant, input: SendEmailInput): Promise<SentEmail> {
    let content: Omit<OutgoingEmail, 'from' | 'to'>;
    let templateId: string | null = null;
    if (input.templateId !== undefined) {
      const template = await this.templates.findForSend(this.db, tenant, input.templateId);
      if (!template) throw errors.notFound('Template');
      const rendered = await this.templates.render(tenant, template, input.templateData ?? {});
      content = { ...rendered, subject: input.subject ?? rendered.subject };
      templateId = template.id;
    } else {
      if (input.subject === undefined)
        throw errors.validation('Request validation failed', [{ path: 'subject', message: 'subject is required' }]);
      content = { subject: input.subject, html: input.html!, text: input.text ?? null };
    }
    const route = await this.providers.sendingRoute(this.db, tenant);
    const email = { ...content, to: input.to, from: input.from ?? route.from };
    const { log, failure } = await this.deliver(this.db, tenant, route, email, { source: 'api', templateId });
    if (failure) throw vendorFailure(failure);
    return { messageId: log!.id, status: log!.status, to: log!.to, sentAt: toIso(log!.sentAt)! };
  }

  /** Provider test: one real send through that provider, logged like any other. */
  async testProvider(tenant: Tenant, providerId: string, to: string) {
    const route = await this.providers.routeOf(tenant, providerId);
    const email: OutgoingEmail = {
      from: route.from,
      to,
      subject: 'Test email from your Mailer provider',
      html: '<p>This is a test email. Your email provider is configured correctly.</p>',
      text: 'This is a test email. Your email provider is configured correctly.',
    };
    const { log, failure } = await this.deliver(this.db, tenant, route, email, { source: 'provider-test' });
    return failure
      ? { success: false, messageId: null, message: failure.message }
      : { success: true, messageId: log!.id, message: `Test email sent to ${to}` };
  }

  /**
   * Hands one email to its transport and records the attempt, whatever the outcome. The
   * outbox transport keeps the rendered content in the row, since that row is the delivery.
   */
  async deliver(db: Knex, tenant: Tenant, route: Route, email: OutgoingEmail, meta: DeliveryMeta): Promise<Delivery> {
    const attempt = await this.attempt(tenant, route, email);
    const log = await this.record(db, tenant, route, email, meta, attempt);
    return { log, failure: attempt.failure };
  }

  /** The vendor call alone; never throws. */
  async attempt(tenant: Tenant, route: Route, email: OutgoingEmail): Promise<Attempt> {
    try {
      const { vendorMessageId } = await route.transport.send(email);
      return { vendorMessageId };
    } catch (error) {
      const failure = error instanceof VendorSendError ? error : new VendorSendError('Email could not be sent', true);
      this.logger.warn('email send failed', {
        provider: route.transport.name,
        providerId: route.providerId,
        projectId: tenant.projectId,
        error: failure.message,
      });
      return { vendorMessageId: null, failure };
    }
  }

  /** Writes the log row of one attempt (undefined when meta.eventId already has one). */
  async record(
    db: Knex,
    tenant: Tenant,
    route: Route,
    email: OutgoingEmail,
    meta: DeliveryMeta,
    attempt: Attempt,
  ): Promise<LogRow | undefined> {
    const keepContent = route.transport.name === 'outbox';
    return insertLog(db, tenant, {
      providerId: route.providerId,
      provider: route.transport.name,
      source: meta.source,
      to: email.to,
      from: email.from,
      subject: email.subject,
      html: keepContent ? email.html : null,
      text: keepContent ? email.text : null,
      templateId: meta.templateId ?? null,
      status: attempt.failure ? 'failed' : 'sent',
      vendorMessageId: attempt.vendorMessageId,
      error: attempt.failure?.message ?? null,
      eventId: meta.eventId,
    });
  }
}
