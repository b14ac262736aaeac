import { Joi } from '@platform/tenancy';
import { EMAIL_STATUSES } from './emails.model';
import type { RecipientResult, SentEmail } from './emails.service';
import type { EmailLog } from './logs.mapper';
import type { SendAttempt } from './logs.repository';

const dateTime = () => Joi.string().meta({ format: 'date-time' });
const nullable = () => Joi.string().allow(null);
const SUPPRESSION_REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'];
const sendStatus = () => Joi.string().valid('sent', 'failed', 'suppressed');

export const recipientResultResponse = Joi.object<RecipientResult>({
  to: Joi.string().required(),
  messageId: Joi.string().required().description("Id of this recipient's log entry"),
  status: sendStatus().required(),
  providerId: nullable()
    .required()
    .description('The provider that delivered (or was tried last); null when suppressed or outbox'),
  reason: Joi.string()
    .valid(...SUPPRESSION_REASONS)
    .description('Present when suppressed'),
  error: Joi.string().description(
    "Present when every provider tried failed for this recipient, or when it was not tried (the send's vendor deadline had passed)",
  ),
}).id('RecipientResult');

export const sentEmailResponse = Joi.object<SentEmail>({
  messageId: Joi.string().required().description('Id of the log entry of this send (first recipient)'),
  status: sendStatus().required(),
  to: Joi.string().required(),
  sentAt: dateTime().required(),
  reason: Joi.string()
    .valid(...SUPPRESSION_REASONS)
    .description('Why a suppressed recipient was not sent to'),
  recipients: Joi.array().items(recipientResultResponse).required(),
})
  .description(
    'The top-level fields describe the first recipient (the whole answer for a single `to`); `recipients` has one entry per distinct recipient.',
  )
  .id('SentEmail');

export const sendAttemptResponse = Joi.object<SendAttempt>({
  provider: Joi.string().valid('mailgun', 'sendgrid', 'outbox').required(),
  providerId: nullable().required(),
  outcome: Joi.string().valid('sent', 'failed').required(),
  error: nullable()
    .required()
    .description("The vendor's error, or that it did not answer; null when it took the email"),
  vendorStatus: Joi.number().integer().allow(null).required().description("HTTP status of the vendor's refusal"),
  at: dateTime().required().description('When this provider was asked'),
}).id('SendAttempt');

export const emailLogResponse = Joi.object<EmailLog>({
  id: Joi.string().required(),
  messageId: Joi.string().required().description('Same as id; the messageId that send returned'),
  to: Joi.string().required(),
  from: Joi.string().required(),
  subject: Joi.string().required(),
  status: Joi.string()
    .valid(...EMAIL_STATUSES)
    .required(),
  provider: Joi.string()
    .valid('mailgun', 'sendgrid', 'outbox', 'none')
    .required()
    .description("none: no provider was asked (suppressed, or not tried before the send's vendor deadline)"),
  providerId: nullable().required(),
  vendorMessageId: nullable().required(),
  templateId: nullable().required(),
  source: Joi.string()
    .required()
    .description('api, provider-test, auth.verify-email, auth.reset-password or auth.sign-in'),
  error: nullable().required(),
  category: Joi.string().valid('transactional', 'marketing').required(),
  suppressionReason: nullable().required().description('Why a suppressed email was not sent'),
  attempts: Joi.array()
    .items(sendAttemptResponse)
    .required()
    .description(
      'The providers this email was handed to, in order (failover): the last one delivered it or failed last; empty when none was asked. An email is one log entry however many providers it tried.',
    ),
  html: nullable().required().description('Rendered html, kept only for the outbox transport'),
  text: nullable().required().description('Rendered text, kept only for the outbox transport'),
  sentAt: dateTime().required(),
  updatedAt: dateTime().required(),
}).id('EmailLog');

const count = () => Joi.number().integer().min(0).required();

export const statsResponse = Joi.object({
  total: count(),
  sent: count(),
  delivered: count(),
  bounced: count(),
  failed: count(),
  suppressed: count(),
}).id('Stats');

export const dailyStatsResponse = Joi.object({
  from: Joi.string().required().description('First UTC day, included'),
  to: Joi.string().required().description('Last UTC day, included'),
  days: Joi.array()
    .items(
      Joi.object({
        day: Joi.string().required().description('UTC day the emails were sent, YYYY-MM-DD'),
        total: count(),
        sent: count(),
        delivered: count(),
        bounced: count(),
        failed: count(),
        suppressed: count(),
      }),
    )
    .required()
    .description('Oldest day first; days without emails are left out. Each email counts under its current status.'),
}).id('DailyStats');

export const recipientLogsResponse = Joi.object({
  logs: Joi.array().items(emailLogResponse).required(),
  limit: Joi.number().integer().required(),
  offset: Joi.number().integer().required(),
});

export const logListResponse = Joi.object({
  logs: Joi.array().items(emailLogResponse).required(),
  total: Joi.number().integer().required(),
  limit: Joi.number().integer().required(),
  offset: Joi.number().integer().required(),
});
