export { envelopeOf, topicMatches, type EventEnvelope, type NewEvent } from './envelope';
export { DEFAULT_MAX_ATTEMPTS, type EventBus, type EventHandler, type Subscription } from './bus';
export { InProcessBus } from './in-process-bus';
export { AmqpBus, EXCHANGE, type AmqpBusOptions } from './amqp-bus';
export { writeEvent, type WriteEventOptions } from './outbox';
export { withOutbox, type OutboxWriter } from './with-outbox';
export { OutboxRelay, type RelayOptions } from './outbox-relay';
export { idempotent } from './idempotent-consumer';
export { memberActionOutbox } from './member-actions';
export {
  projectErasureHandler,
  projectErasureQueue,
  startProjectErasure,
  type ProjectErasureDeps,
  type ProjectErasureOptions,
} from './project-erasure';
export {
  startUserErasure,
  userErasureHandler,
  userErasureQueue,
  type ErasedUser,
  type UserErasureDeps,
  type UserErasureOptions,
} from './user-erasure';
export { eventMigrations } from './migrations';
export {
  AUTH_EVENTS,
  PLATFORM_EVENTS,
  ERASING_SERVICES,
  type ErasingService,
  type ProjectErasureRequestedData,
  type ProjectErasedData,
  type MemberActionData,
  type InvitationCreatedData,
  LOCALE_PATTERN,
  SECRET_BEARING_EVENTS,
  type AuthEmailData,
  type UserRegisteredData,
  type SignInEmailData,
  type UserDeletedData,
  type VerificationRequestedData,
  type PasswordResetRequestedData,
} from './contracts';
