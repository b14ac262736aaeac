/** The Billing service's contract: every operation, its request schemas (the routes' own) and responses. */
import {
  buildContractDocument,
  defineOperation,
  json,
  type OperationDefinition,
  KEYS,
  KEYS_AND_BEARER,
} from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { accountStatusResponse } from './account/account.responses';
import { checkoutCreatedResponse, checkoutStatusResponse } from './checkout/checkout.responses';
import { createCheckoutSchema, sessionIdSchema } from './checkout/checkout.schemas';
import { customerListResponse, customerResponse, deletedCustomerResponse } from './customers/customers.responses';
import {
  createCustomerSchema,
  customerIdSchema,
  listCustomersQuerySchema,
  updateCustomerSchema,
} from './customers/customers.schemas';
import { paymentIntentCreatedResponse, paymentIntentStatusResponse } from './payment-intents/payment-intents.responses';
import { createPaymentIntentSchema, paymentIntentIdSchema } from './payment-intents/payment-intents.schemas';
import { portalCreatedResponse } from './portal/portal.responses';
import { createPortalSchema } from './portal/portal.schemas';
import { environmentQuery } from './shared/environment';
import { stripeConfigResponse } from './stripe/stripe-config.responses';
import { putStripeConfigSchema } from './stripe/stripe-config.schemas';
import { currentSubscriptionResponse, subscriptionPageResponse } from './subscriptions/subscriptions.responses';
import { listSubscriptionsSchema, subscriptionQuerySchema } from './subscriptions/subscriptions.schemas';
import { webhookReceivedResponse } from './webhooks/webhooks.responses';
import { webhookParamsSchema } from './webhooks/webhooks.schemas';

const NOT_CONFIGURED =
  '403 PROVIDER_NOT_CONFIGURED when the project has no Stripe keys for the environment or Stripe rejects the key. ' +
  "Other Stripe errors: 400 (invalid request, with Stripe's message), 404 (unknown object), 500/502 VENDOR_ERROR.";
const BOTH =
  'Needs the key headers and a bearer access token of the same tenant and project (else 401). ' +
  'The signed-in user is the Stripe customer: one per user and environment, created on first use.';

const testEnv = environmentQuery.test;
const idParam = (name: string, schema: Joi.Schema, description: string) =>
  Joi.object({ [name]: schema.description(description).required() });

/** POST on behalf of the signed-in user (keys and bearer): checkout session, payment intent, portal session. */
const userCreate = (path: string, operationId: string, summary: string, body: Joi.Schema, created: Joi.Schema) =>
  defineOperation({
    method: 'post',
    path,
    operationId,
    summary,
    description: `${BOTH} ${NOT_CONFIGURED}`,
    security: KEYS_AND_BEARER,
    request: { query: testEnv, body },
    responses: { 201: json('Created', created) },
    errors: [400, 401, 403, 404, 429, 500, 502],
  });

/** GET of a Stripe object this project created (keys and bearer); another project's is 404. */
const userStatus = (path: string, operationId: string, object: string, params: Joi.ObjectSchema, status: Joi.Schema) =>
  defineOperation({
    method: 'get',
    path,
    operationId,
    summary: `Status of a ${object} of this project`,
    description: `A ${object} not created by this project is 404. ${NOT_CONFIGURED}`,
    security: KEYS_AND_BEARER,
    request: { params, query: testEnv },
    responses: { 200: json(`The ${object}`, status) },
    errors: [400, 401, 403, 404, 500, 502],
  });

const customerParams = idParam('customer_id', customerIdSchema, 'Stripe customer id');
const customerErrors = [400, 401, 403, 404, 429, 500, 502];

const payOperations: OperationDefinition[] = [
  {
    method: 'put',
    path: '/pay/config',
    operationId: 'putStripeConfig',
    summary: "Store the project's Stripe keys for one environment (encrypted at rest)",
    security: KEYS,
    request: { query: testEnv, body: putStripeConfigSchema },
    responses: { 200: json('Stored; the keys are never returned', stripeConfigResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/pay/config',
    operationId: 'getStripeConfig',
    summary: 'Which environments have Stripe keys (never the keys)',
    description: 'Top-level fields are for the requested environment; `environments` lists both.',
    security: KEYS,
    request: { query: testEnv },
    responses: { 200: json('Configuration state', stripeConfigResponse) },
    errors: [400, 401],
  },
  userCreate(
    '/pay/checkout/session',
    'createCheckoutSession',
    'Create a Stripe Checkout session for the signed-in user',
    createCheckoutSchema,
    checkoutCreatedResponse,
  ),
  userStatus(
    '/pay/checkout/session/{session_id}',
    'getCheckoutSession',
    'checkout session',
    idParam('session_id', sessionIdSchema, 'Stripe checkout session id'),
    checkoutStatusResponse,
  ),
  userCreate(
    '/pay/payment/intent',
    'createPaymentIntent',
    'Create a payment intent',
    createPaymentIntentSchema,
    paymentIntentCreatedResponse,
  ),
  userStatus(
    '/pay/payment/intent/{payment_intent_id}',
    'getPaymentIntent',
    'payment intent',
    idParam('payment_intent_id', paymentIntentIdSchema, 'Stripe payment intent id'),
    paymentIntentStatusResponse,
  ),
  userCreate(
    '/pay/customer-portal/session',
    'createPortalSession',
    'Create a Stripe customer-portal session',
    createPortalSchema,
    portalCreatedResponse,
  ),
  {
    method: 'post',
    path: '/pay/customers',
    operationId: 'createCustomer',
    summary: 'Create a Stripe customer tagged with this tenant and project',
    description: `Limited to 1,000 creates an hour per project and environment (429 with Retry-After). ${NOT_CONFIGURED}`,
    security: KEYS,
    request: { query: testEnv, body: createCustomerSchema, bodyRequired: false },
    responses: { 201: json('Created', customerResponse) },
    errors: [400, 401, 403, 429, 500, 502],
  },
  {
    method: 'get',
    path: '/pay/customers',
    operationId: 'listCustomers',
    summary: "This project's customers, newest first",
    description:
      "Read fresh from Stripe. A customer deleted in Stripe, or no longer carrying this project's tags there, is left out, " +
      `so a page may hold fewer than \`limit\`; \`has_more\` tells whether records follow. Limited to 5,000 customer queries an hour per project and environment. ${NOT_CONFIGURED}`,
    security: KEYS,
    request: { query: listCustomersQuerySchema },
    responses: { 200: json('A page of customers', customerListResponse) },
    errors: [400, 401, 403, 429, 500, 502],
  },
  {
    method: 'get',
    path: '/pay/customers/{customer_id}',
    operationId: 'getCustomer',
    summary: "One customer of this project (another project's is 404)",
    security: KEYS,
    request: { params: customerParams, query: testEnv },
    responses: { 200: json('The customer', customerResponse) },
    errors: customerErrors,
  },
  {
    method: 'put',
    path: '/pay/customers/{customer_id}',
    operationId: 'updateCustomer',
    summary: 'Change a customer of this project',
    description:
      'Only the fields sent change; metadata is merged key by key and `tenantId`/`projectId` cannot be changed.',
    security: KEYS,
    request: { params: customerParams, query: testEnv, body: updateCustomerSchema },
    responses: { 200: json('The updated customer', customerResponse) },
    errors: customerErrors,
  },
  {
    method: 'delete',
    path: '/pay/customers/{customer_id}',
    operationId: 'deleteCustomer',
    summary: 'Delete a customer of this project in Stripe',
    security: KEYS,
    request: { params: customerParams, query: testEnv },
    responses: { 200: json('Deleted', deletedCustomerResponse) },
    errors: customerErrors,
  },
  {
    method: 'get',
    path: '/pay/account/status',
    operationId: 'getAccountStatus',
    summary: "The project's Stripe account and what keeps it from charging or paying out",
    description:
      'Default environment here is `live`. Without keys for the environment the answer is 200 with ' +
      '`configured: false` (not 403), since that is the status being asked about; a key Stripe rejects is 403.',
    security: KEYS,
    request: { query: environmentQuery.live },
    responses: { 200: json('Account status', accountStatusResponse) },
    errors: [400, 401, 403, 500, 502],
  },
  {
    method: 'get',
    path: '/pay/subscriptions',
    operationId: 'listSubscriptions',
    summary: "The project's subscriptions in one environment, newest first",
    description:
      'Answered from the table kept current by Stripe webhooks (no Stripe call, so no Stripe keys needed). ' +
      'Filters: status, customerEmail. Cursor pagination: pass the nextCursor of a page as cursor; null on the last page.',
    security: KEYS,
    request: { query: listSubscriptionsSchema },
    responses: { 200: json('A page of subscriptions', subscriptionPageResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/pay/webhooks/{tenant_id}/{project_id}',
    operationId: 'receiveStripeWebhook',
    summary: 'Receive Stripe events for one project and environment',
    description:
      'No key headers: the `Stripe-Signature` header, made with the webhook secret stored by PUT /pay/config, is checked ' +
      'with the Stripe SDK on the bytes as sent, before they are parsed (bad or missing: 400, nothing stored); a body ' +
      'over 512 KB is 413 PAYLOAD_TOO_LARGE. Each event id is processed once (a replay answers ' +
      '`duplicate: true`). checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid and ' +
      'invoice.payment_failed keep the subscriptions table current; customer.deleted forgets the customer; ' +
      'other event types are acknowledged. ' +
      'Unknown project 404; no webhook secret for the environment 403 PROVIDER_NOT_CONFIGURED.',
    security: [],
    // The body is Stripe's, checked by its signature rather than a schema.
    request: {
      params: webhookParamsSchema,
      query: testEnv,
      rawBody: { type: 'object', description: 'A Stripe event, exactly as Stripe sent it' },
    },
    responses: { 200: json('Accepted', webhookReceivedResponse) },
    errors: [400, 403, 404, 413, 500, 502],
  },
];

/** RESOLUTIONS: every /pay/... path is also served as /stripe/... */
const stripeAliases = payOperations.map((op) => ({
  ...op,
  path: op.path.replace(/^\/pay\//, '/stripe/'),
  operationId: `${op.operationId}Stripe`,
  summary: `${op.summary} (alias of ${op.path})`,
}));

export const operations: OperationDefinition[] = [
  ...payOperations,
  ...stripeAliases,
  {
    method: 'get',
    path: '/customer/subscription',
    operationId: 'getCustomerSubscription',
    summary: 'The newest active or trialing subscription of a customer email',
    description: 'Answered from the table kept current by Stripe webhooks; `subscription` is null when there is none.',
    security: KEYS,
    request: { query: subscriptionQuerySchema },
    responses: { 200: json('The subscription or null', currentSubscriptionResponse) },
    errors: [400, 401, 500],
  },
];

export const openapi = buildContractDocument({
  title: 'Billing service',
  description:
    "Part of the application backend platform. All paths start with /v1. Payments go through the tenant's own Stripe " +
    'account (keys per project and environment, see PUT /pay/config); every /pay/... path is also served as /stripe/... .',
  operations,
  tags: [
    {
      name: 'config',
      description: "The project's Stripe keys and webhook secrets per environment",
      paths: ['/pay/config', '/stripe/config'],
    },
    { name: 'checkout', description: 'Stripe Checkout sessions', paths: ['/pay/checkout', '/stripe/checkout'] },
    { name: 'payment-intents', description: 'Payment intents', paths: ['/pay/payment', '/stripe/payment'] },
    {
      name: 'portal',
      description: 'Customer portal sessions',
      paths: ['/pay/customer-portal', '/stripe/customer-portal'],
    },
    {
      name: 'customers',
      description: 'Stripe customers tagged with the project',
      paths: ['/pay/customers', '/stripe/customers'],
    },
    { name: 'account', description: "The project's Stripe account status", paths: ['/pay/account', '/stripe/account'] },
    {
      name: 'webhooks',
      description: 'Stripe events received for a project',
      paths: ['/pay/webhooks', '/stripe/webhooks'],
    },
    { name: 'subscriptions', description: 'Subscriptions kept current by Stripe events', paths: ['/customer'] },
  ],
});
