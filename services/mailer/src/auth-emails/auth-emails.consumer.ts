import type { Knex } from 'knex';
import {
  AUTH_EVENTS,
  idempotent,
  PLATFORM_EVENTS,
  type InvitationCreatedData,
  type AuthEmailData,
  type EventEnvelope,
  type EventHandler,
  type SignInEmailData,
  type UserRegisteredData,
} from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import { type Logger } from '@platform/http';
import { AppError } from '@platform/tenancy';
import { failover, record, recordSuppressed, type SendingDeps } from '../emails/emails.service';
import { sendingRoutes } from '../providers/providers.service';
import { blockingSuppressions } from '../suppressions/suppressions.service';
import type { Tenant } from '@platform/tenancy';
import { renderSource, type RenderedEmail } from '../templates/template-engine';
import { findTemplateForSend, forLocale, renderTemplate } from '../templates/templates.service';
import { AUTH_TEMPLATE_KEYS, DEFAULT_AUTH_TEMPLATES, type AuthTemplateKey } from './default-templates';

export const AUTH_EMAIL_QUEUE = 'mailer.auth-emails';
export const AUTH_EMAIL_CONSUMER = 'auth-emails';

interface AuthEmailPlan {
  templateKey: AuthTemplateKey;
  data: { email: string; link: string; expiresAt: string; code?: string };
  /** The user's locale, when Authentication knows one: picks the template's variant. */
  locale?: string;
}

const localeOf = (data: { locale?: unknown }) => (typeof data.locale === 'string' ? data.locale : undefined);

/** What an auth event asks for; null when it needs no email (registration without verification). */
export function planOf(event: EventEnvelope): AuthEmailPlan | null {
  switch (event.type) {
    case AUTH_EVENTS.userRegistered: {
      const data = event.data as UserRegisteredData;
      if (!data?.verification) return null;
      return {
        templateKey: AUTH_TEMPLATE_KEYS.verifyEmail,
        data: { email: data.email, link: data.verification.link, expiresAt: data.verification.expiresAt },
        locale: localeOf(data),
      };
    }
    case AUTH_EVENTS.verificationRequested:
    case AUTH_EVENTS.passwordResetRequested: {
      const data = event.data as AuthEmailData;
      const templateKey =
        event.type === AUTH_EVENTS.verificationRequested
          ? AUTH_TEMPLATE_KEYS.verifyEmail
          : AUTH_TEMPLATE_KEYS.resetPassword;
      return {
        templateKey,
        data: { email: data.email, link: data.link, expiresAt: data.expiresAt },
        locale: localeOf(data),
      };
    }
    case AUTH_EVENTS.signInRequested: {
      const data = event.data as SignInEmailData;
      return {
        templateKey: AUTH_TEMPLATE_KEYS.signIn,
        data: { email: data.email, link: data.link, expiresAt: data.expiresAt, code: data.code },
        locale: localeOf(data),
      };
    }
    case PLATFORM_EVENTS.invitationCreated: {
      const data = event.data as InvitationCreatedData;
      return {
        templateKey: AUTH_TEMPLATE_KEYS.invitation,
        data: { email: data.email, link: data.link, expiresAt: data.expiresAt },
      };
    }
    default:
      return null;
  }
}

/** 4xx from a vendor (other than throttling) will not get better by retrying. */
const isFinal = (status?: number) =>
  status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;

async function render(
  sending: SendingDeps,
  trx: Knex,
  tenant: Tenant,
  plan: AuthEmailPlan,
  logger: Logger,
): Promise<RenderedEmail & { templateId: string | null }> {
  const template = await findTemplateForSend(trx, tenant, plan.templateKey);
  if (template) {
    try {
      return {
        ...(await renderTemplate(sending.renderer, tenant, forLocale(template, plan.locale), plan.data)),
        templateId: template.id,
      };
    } catch (error) {
      logger.warn('project auth template failed to render, using the built-in one', {
        templateId: template.id,
        error: String(error),
      });
    }
  }
  return { ...renderSource(DEFAULT_AUTH_TEMPLATES[plan.templateKey], plan.data), templateId: null };
}

/**
 * Sends the email one auth event asks for, once per event: `idempotent` records the event id
 * in the same transaction, and the log row carries the event id under a unique index. A process
 * killed between the vendor's call and the commit leaves no record, so the redelivered event
 * sends again: the vendors take no idempotency key, and a second copy beats a lost link.
 * A vendor that cannot be reached is logged as a failed attempt and the event retried; a
 * vendor that refuses ends in one failed log; a production project without a provider is
 * only logged as a warning (there is no provider to record the attempt under).
 */
export async function sendAuthEmail(
  deps: ServiceDeps,
  sending: SendingDeps,
  trx: Knex.Transaction,
  event: EventEnvelope,
): Promise<void> {
  const plan = planOf(event);
  if (!plan || !plan.data.email) return;
  const tenant: Tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const { templateId, ...content } = await render(sending, trx, tenant, plan, deps.logger);
  const meta = { source: plan.templateKey, templateId, eventId: event.id };

  // A bounced or complaining address gets no more mail, auth mail included.
  const blocked = await blockingSuppressions(trx, tenant, [plan.data.email], 'transactional');
  const suppression = blocked.get(plan.data.email.toLowerCase());
  if (suppression) {
    const email = { ...content, to: plan.data.email, from: sending.defaultFrom };
    await recordSuppressed(trx, tenant, email, meta, suppression.reason);
    return;
  }

  let routes;
  try {
    routes = await sendingRoutes(trx, sending.routeSettings, tenant);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'PROVIDER_NOT_CONFIGURED') throw error;
    deps.logger.warn('auth email not sent: no email provider', { projectId: tenant.projectId, eventId: event.id });
    return;
  }
  const final = await failover(sending, tenant, routes, content, plan.data.email, undefined);
  const failure = final.attempt.failure;
  if (failure && (failure.unreachable || !isFinal(failure.vendorStatus))) {
    // Recorded outside the transaction (it rolls back) and without the event id (the retry owns it).
    await record(deps.db, tenant, final, { ...meta, eventId: undefined });
    throw failure;
  }
  await record(trx, tenant, final, meta);
}

/** The consumer's handler, exported so tests can deliver the same event twice. */
export function authEmailHandler(deps: ServiceDeps, sending: SendingDeps): EventHandler {
  return idempotent(deps.db, AUTH_EMAIL_CONSUMER, (trx, event) => sendAuthEmail(deps, sending, trx, event));
}

export async function subscribeAuthEmails(deps: ServiceDeps, sending: SendingDeps): Promise<void> {
  await deps.bus.subscribe({
    queue: AUTH_EMAIL_QUEUE,
    topics: [
      AUTH_EVENTS.userRegistered,
      AUTH_EVENTS.verificationRequested,
      AUTH_EVENTS.passwordResetRequested,
      AUTH_EVENTS.signInRequested,
      // the console's invitations: the same single-use-link e-mail, under its reserved project
      PLATFORM_EVENTS.invitationCreated,
    ],
    handler: authEmailHandler(deps, sending),
    // Each handler holds a pooled connection (its transaction) during the vendor call; keep
    // most of the pool for HTTP requests and for logging failed attempts.
    prefetch: 4,
    maxAttempts: 5,
    retryDelaysMs: [2_000, 10_000, 60_000, 300_000],
  });
}
