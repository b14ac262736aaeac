import type { Knex } from 'knex';
import { type Logger } from '@platform/http';
import { AppError, errors, toIso } from '@platform/tenancy';
import { providerRoute, sendingRoutes, type Route, type RouteSettings } from '../providers/providers.service';
import type { Tenant } from '@platform/tenancy';
import { blockingSuppressions } from '../suppressions/suppressions.service';
import type { TemplateRenderer } from '../templates/template-budget';
import { findTemplateForSend, forLocale, renderTemplate } from '../templates/templates.service';
import { VendorSendError, type OutgoingEmail } from '../transports/transport';
import { unsubscribeHeadersSigner } from '../unsubscribe/unsubscribe.service';
import type { EmailStatus } from './emails.model';
import { failsOver, type ProviderCooldowns } from './failover';
import { claimKey, findKey, releaseKey, storeResponse } from './idempotency.repository';
import { insertLog, type LogRow, type SendAttempt } from './logs.repository';
import { requestHash } from './request-hash';
import type { MoreSlots, ProjectSendSlots } from './send-slots';
import type { EmailCategory, SendEmailInput } from './emails.schemas';

/** What happened to one recipient of a send. */
export interface RecipientResult {
  to: string;
  messageId: string;
  status: EmailStatus;
  /** The provider that delivered, or the last one tried; null when suppressed or sent to the outbox. */
  providerId: string | null;
  /** Why a suppressed recipient was not sent to. */
  reason?: string;
  error?: string;
}

/** The first recipient's result at the top (the single-recipient shape), and every recipient's in `recipients`. */
export interface SentEmail {
  messageId: string;
  status: EmailStatus;
  to: string;
  sentAt: string;
  reason?: string;
  recipients: RecipientResult[];
}

export interface DeliveryMeta {
  source: string;
  templateId?: string | null;
  category?: EmailCategory;
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

/**
 * How a failover ended: the provider that delivered, or the last one that failed, with every
 * provider asked (the last included), for the email's one log entry.
 */
export interface FinalAttempt {
  route: Route;
  email: OutgoingEmail;
  attempt: Attempt;
  attempts: SendAttempt[];
}

type Content = Omit<OutgoingEmail, 'from' | 'to'>;

/** Idempotency keys are kept for 24 hours, as Stripe keeps them. */
const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** A failed vendor call as the client sees it: 500 when refused, 502 when unreachable. */
export function vendorFailure(failure: VendorSendError): AppError {
  return failure.unreachable ? errors.vendorUnreachable(failure.message) : errors.vendor(failure.message);
}

/** The recipients of a send, once each (addresses compare case-insensitively; the first spelling is kept). */
function recipientsOf(to: string | string[]): string[] {
  const seen = new Map<string, string>();
  for (const address of Array.isArray(to) ? to : [to]) {
    if (!seen.has(address.toLowerCase())) seen.set(address.toLowerCase(), address);
  }
  return [...seen.values()];
}

/**
 * What sending needs besides the database, built once in `build` and shared by the API and the
 * auth-email consumer (both learn which providers keep failing).
 */
export interface SendingDeps {
  renderer: TemplateRenderer;
  /** What turns a provider row into a route (the master key, the vendors' settings). */
  routeSettings: RouteSettings;
  /** Where recipients reach this service (the unsubscribe links). */
  publicUrl: string;
  cooldowns: ProviderCooldowns;
  slots: ProjectSendSlots;
  logger: Logger;
  /** The sender recorded on a suppressed email that names none (no provider was chosen). */
  defaultFrom: string;
}

export async function sendEmail(
  db: Knex,
  sending: SendingDeps,
  tenant: Tenant,
  input: SendEmailInput,
): Promise<SentEmail> {
  const { response, failure } = await sending.slots.run(tenant.projectId, (more) =>
    sendWith(db, sending, tenant, input, more),
  );
  if (failure) throw vendorFailure(failure);
  return response!;
}

/**
 * A send under an Idempotency-Key: the first request with the key sends and its 200 answer is
 * kept for 24 hours; a repeat (also a concurrent one, which waits on the key's row) gets that
 * answer and sends nothing; another body with the key is 409. A send that failed keeps no
 * answer, so the client's retry sends again.
 */
export async function sendEmailOnce(
  db: Knex,
  sending: SendingDeps,
  tenant: Tenant,
  key: string,
  input: SendEmailInput,
): Promise<{ response: SentEmail; replayed: boolean }> {
  const hash = requestHash(input);
  const outcome = await sending.slots.run(tenant.projectId, (more) =>
    db.transaction(async (trx) => {
      if (!(await claimKey(trx, tenant, key, hash, new Date(Date.now() + IDEMPOTENCY_TTL_MS)))) {
        const stored = (await findKey(trx, tenant, key))!;
        if (stored.requestHash !== hash) {
          throw errors.conflict('This Idempotency-Key was already used with a different request');
        }
        return { response: stored.response as SentEmail, replayed: true };
      }
      const { response, failure } = await sendWith(trx, sending, tenant, input, more);
      if (failure) {
        await releaseKey(trx, tenant, key);
        return { failure };
      }
      await storeResponse(trx, tenant, key, response);
      return { response: response!, replayed: false };
    }),
  );
  if ('failure' in outcome) throw vendorFailure(outcome.failure!);
  return outcome;
}

/**
 * Renders once, then for each recipient: a suppressed one gets a `suppressed` log and no
 * vendor call, the others go through the providers in failover order, several at once on the
 * slots of the project's share (`more`). A recipient whose turn comes after the vendor deadline
 * (counted from the send's start) is not tried and logged failed, so a send of many recipients
 * ends soon after that deadline whatever its size. Fails (with the first recipient's failure)
 * only when every recipient that was tried failed.
 */
async function sendWith(
  db: Knex,
  sending: SendingDeps,
  tenant: Tenant,
  input: SendEmailInput,
  more: MoreSlots,
): Promise<{ response?: SentEmail; failure?: VendorSendError }> {
  const deadline = Date.now() + sending.routeSettings.config.vendorTimeoutMs;
  const { content, templateId } = await contentOf(db, sending, tenant, input);
  const recipients = recipientsOf(input.to);
  const blocked = await blockingSuppressions(db, tenant, recipients, input.category);
  const tried = recipients.length - blocked.size;
  const routes = tried > 0 ? await sendingRoutes(db, sending.routeSettings, tenant) : [];
  const meta: DeliveryMeta = { source: 'api', templateId, category: input.category };
  const unsubscribeHeaders =
    input.category === 'marketing' && tried > 0
      ? await unsubscribeHeadersSigner(db, sending.routeSettings.secrets, sending.publicUrl, tenant)
      : undefined;

  const sendTo = async (to: string): Promise<RecipientOutcome> => {
    const suppression = blocked.get(to.toLowerCase());
    if (suppression) {
      const email = { ...content, to, from: input.from ?? sending.defaultFrom };
      const log = (await recordSuppressed(db, tenant, email, meta, suppression.reason))!;
      const result = { to, messageId: log.id, status: log.status, providerId: null, reason: suppression.reason };
      return { result, sentAt: log.sent_at };
    }
    if (Date.now() >= deadline) {
      const failure = new VendorSendError(NOT_TRIED, true);
      const email = { ...content, to, from: input.from ?? sending.defaultFrom };
      const log = (await recordNotTried(db, tenant, email, meta))!;
      const result = { to, messageId: log.id, status: log.status, providerId: null, error: NOT_TRIED };
      return { result, sentAt: log.sent_at, failure };
    }
    const headers = unsubscribeHeaders?.(to);
    const final = await failover(
      sending,
      tenant,
      routes,
      { ...content, ...(headers ? { headers } : {}) },
      to,
      input.from,
    );
    const log = (await record(db, tenant, final, meta))!;
    const failure = final.attempt.failure;
    const result = {
      to,
      messageId: log.id,
      status: log.status,
      providerId: log.provider_id,
      ...(failure ? { error: failure.message } : {}),
    };
    return { result, sentAt: log.sent_at, failure };
  };

  const outcomes = await inParallel(recipients, sendTo, tried, more);
  const results = outcomes.map((outcome) => outcome.result);
  // Every recipient that was tried failed: the send failed (the logs say so, recipient by recipient).
  if (tried > 0 && results.filter((r) => r.status === 'failed').length === tried) {
    return { failure: outcomes.find((outcome) => outcome.failure)?.failure };
  }
  const [first] = outcomes;
  return {
    response: {
      messageId: first.result.messageId,
      status: first.result.status,
      to: first.result.to,
      sentAt: toIso(first.sentAt)!,
      ...(first.result.reason ? { reason: first.result.reason } : {}),
      recipients: results,
    },
  };
}

interface RecipientOutcome {
  result: RecipientResult;
  sentAt: Date;
  failure?: VendorSendError;
}

const NOT_TRIED = 'Not sent: the vendor deadline of this send passed before this recipient was tried; send to it again';

/**
 * Runs `work` for each item, in order of the items, on the send's own slot and as many more of
 * the project's share as `wanted` items can use; each extra slot is given back when its lane ends.
 */
async function inParallel<T, R>(items: T[], work: (item: T) => Promise<R>, wanted: number, more: MoreSlots) {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]);
    }
  };
  const extra: (() => void)[] = [];
  while (extra.length < wanted - 1) {
    const release = more();
    if (!release) break;
    extra.push(release);
  }
  await Promise.all([lane(), ...extra.map((release) => lane().finally(release))]);
  return out;
}

async function contentOf(
  db: Knex,
  sending: SendingDeps,
  tenant: Tenant,
  input: SendEmailInput,
): Promise<{ content: Content; templateId: string | null }> {
  if (input.templateId === undefined) {
    if (input.subject === undefined)
      throw errors.validation('Request validation failed', [{ path: 'subject', message: 'subject is required' }]);
    return { content: { subject: input.subject, html: input.html!, text: input.text ?? null }, templateId: null };
  }
  const template = await findTemplateForSend(db, tenant, input.templateId);
  if (!template) throw errors.notFound('Template');
  const rendered = await renderTemplate(
    sending.renderer,
    tenant,
    forLocale(template, input.locale),
    input.templateData ?? {},
  );
  return { content: { ...rendered, subject: input.subject ?? rendered.subject }, templateId: template.id };
}

/**
 * Tries the routes in order (providers cooling down after repeated failures go last, see
 * ProviderCooldowns) until one takes the email. A failure that is the provider's problem moves
 * on to the next provider; a refusal of the message itself ends the attempts. The last attempt
 * is returned, with all of them, for the caller to record as the email's one log entry.
 */
export async function failover(
  sending: SendingDeps,
  tenant: Tenant,
  routes: Route[],
  content: Content,
  to: string,
  from: string | undefined,
): Promise<FinalAttempt> {
  const ordered = sending.cooldowns.order(routes);
  const attempts: SendAttempt[] = [];
  for (const [index, route] of ordered.entries()) {
    const email: OutgoingEmail = { ...content, to, from: from ?? route.from };
    const at = new Date();
    const attempt = await attemptSend(sending, tenant, route, email);
    attempts.push(attemptRecord(route, attempt, at));
    if (!attempt.failure) {
      sending.cooldowns.succeeded(route.providerId);
      return { route, email, attempt, attempts };
    }
    if (!failsOver(attempt.failure)) return { route, email, attempt, attempts };
    sending.cooldowns.failed(route.providerId);
    if (index === ordered.length - 1) return { route, email, attempt, attempts };
  }
  throw new Error('failover needs at least one route');
}

/** One provider's try as the log entry keeps it. */
function attemptRecord(route: Route, attempt: Attempt, at: Date): SendAttempt {
  return {
    provider: route.transport.name,
    providerId: route.providerId,
    outcome: attempt.failure ? 'failed' : 'sent',
    error: attempt.failure?.message ?? null,
    vendorStatus: attempt.failure?.vendorStatus ?? null,
    at: toIso(at)!,
  };
}

/** Provider test: one real send through that provider, logged like any other. */
export async function testProvider(db: Knex, sending: SendingDeps, tenant: Tenant, providerId: string, to: string) {
  const route = await providerRoute(db, sending.routeSettings, tenant, providerId);
  const email: OutgoingEmail = {
    from: route.from,
    to,
    subject: 'Test email from your Mailer provider',
    html: '<p>This is a test email. Your email provider is configured correctly.</p>',
    text: 'This is a test email. Your email provider is configured correctly.',
  };
  const { log, failure } = await deliver(db, sending, tenant, route, email, { source: 'provider-test' });
  return failure
    ? { success: false, messageId: null, message: failure.message }
    : { success: true, messageId: log!.id, message: `Test email sent to ${to}` };
}

/**
 * Hands one email to its transport and records the attempt, whatever the outcome. The
 * outbox transport keeps the rendered content in the row, since that row is the delivery.
 */
async function deliver(
  db: Knex,
  sending: SendingDeps,
  tenant: Tenant,
  route: Route,
  email: OutgoingEmail,
  meta: DeliveryMeta,
): Promise<Delivery> {
  const at = new Date();
  const attempt = await attemptSend(sending, tenant, route, email);
  const log = await record(db, tenant, { route, email, attempt, attempts: [attemptRecord(route, attempt, at)] }, meta);
  return { log, failure: attempt.failure };
}

/** The vendor call alone; never throws. */
async function attemptSend(sending: SendingDeps, tenant: Tenant, route: Route, email: OutgoingEmail): Promise<Attempt> {
  try {
    const { vendorMessageId } = await route.transport.send(email);
    return { vendorMessageId };
  } catch (error) {
    const failure = error instanceof VendorSendError ? error : new VendorSendError('Email could not be sent', true);
    sending.logger.warn('email send failed', {
      provider: route.transport.name,
      providerId: route.providerId,
      projectId: tenant.projectId,
      error: failure.message,
    });
    return { vendorMessageId: null, failure };
  }
}

/** Writes the email's one log row, its attempts inside (undefined when meta.eventId already has one). */
export async function record(
  db: Knex,
  tenant: Tenant,
  { route, email, attempt, attempts }: FinalAttempt,
  meta: DeliveryMeta,
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
    category: meta.category ?? 'transactional',
    suppressionReason: null,
    attempts,
    eventId: meta.eventId,
  });
}

/** The log of an email that was not handed to any provider because its recipient is suppressed. */
export async function recordSuppressed(
  db: Knex,
  tenant: Tenant,
  email: OutgoingEmail,
  meta: DeliveryMeta,
  reason: string,
): Promise<LogRow | undefined> {
  return insertLog(db, tenant, {
    providerId: null,
    provider: 'none',
    source: meta.source,
    to: email.to,
    from: email.from,
    subject: email.subject,
    html: null,
    text: null,
    templateId: meta.templateId ?? null,
    status: 'suppressed',
    vendorMessageId: null,
    error: null,
    category: meta.category ?? 'transactional',
    suppressionReason: reason,
    attempts: [],
    eventId: meta.eventId,
  });
}

/** The log of an email whose recipient was not tried: the send's vendor deadline had passed. */
function recordNotTried(db: Knex, tenant: Tenant, email: OutgoingEmail, meta: DeliveryMeta) {
  return insertLog(db, tenant, {
    providerId: null,
    provider: 'none',
    source: meta.source,
    to: email.to,
    from: email.from,
    subject: email.subject,
    html: null,
    text: null,
    templateId: meta.templateId ?? null,
    status: 'failed',
    vendorMessageId: null,
    error: NOT_TRIED,
    category: meta.category ?? 'transactional',
    suppressionReason: null,
    attempts: [],
    eventId: meta.eventId,
  });
}
