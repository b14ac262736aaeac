import { buildOpenApiDocument, errorResponses, jsonBody, jsonResponse, KEYS, KEYS_AND_BEARER } from '@platform/tenancy';
import { recordSchemas } from './openapi.records';
import { environmentParam, pathParam, paymentSchemas, succeeded } from './openapi.schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const testEnv = environmentParam('test');

const NOT_CONFIGURED =
  '403 PROVIDER_NOT_CONFIGURED when the project has no Stripe keys for the environment or Stripe rejects the key. ' +
  "Other Stripe errors: 400 (invalid request, with Stripe's message), 404 (unknown object), 500/502 VENDOR_ERROR.";
const BOTH =
  'Needs the key headers and a bearer access token of the same tenant and project (else 401). ' +
  'The signed-in user is the Stripe customer: one per user and environment, created on first use.';

/** POST on behalf of the signed-in user (keys and bearer): checkout session, payment intent, portal session. */
const userCreate = (operationId: string, summary: string, input: string, created: string) => ({
  post: {
    operationId,
    summary,
    description: `${BOTH} ${NOT_CONFIGURED}`,
    security: KEYS_AND_BEARER,
    parameters: [testEnv],
    requestBody: jsonBody(ref(input)),
    responses: {
      '201': jsonResponse('Created', ref(created)),
      ...errorResponses(400, 401, 403, 404, 429, 500, 502),
    },
  },
});

/** GET of a Stripe object this project created (keys and bearer); another project's is 404. */
const userStatus = (operationId: string, object: string, idParam: Record<string, unknown>, status: string) => ({
  get: {
    operationId,
    summary: `Status of a ${object} of this project`,
    description: `A ${object} not created by this project is 404. ${NOT_CONFIGURED}`,
    security: KEYS_AND_BEARER,
    parameters: [idParam, testEnv],
    responses: {
      '200': jsonResponse(`The ${object}`, ref(status)),
      ...errorResponses(400, 401, 403, 404, 500, 502),
    },
  },
});

const customerId = pathParam('customer_id', 'Stripe customer id');
const customerErrors = errorResponses(400, 401, 403, 404, 429, 500, 502);

const payPaths: Record<string, unknown> = {
  '/pay/config': {
    put: {
      operationId: 'putStripeConfig',
      summary: "Store the project's Stripe keys for one environment (encrypted at rest)",
      security: KEYS,
      parameters: [testEnv],
      requestBody: jsonBody(ref('StripeConfigInput')),
      responses: {
        '200': jsonResponse('Stored; the keys are never returned', ref('StripeConfig')),
        ...errorResponses(400, 401),
      },
    },
    get: {
      operationId: 'getStripeConfig',
      summary: 'Which environments have Stripe keys (never the keys)',
      description: 'Top-level fields are for the requested environment; `environments` lists both.',
      security: KEYS,
      parameters: [testEnv],
      responses: { '200': jsonResponse('Configuration state', ref('StripeConfig')), ...errorResponses(400, 401) },
    },
  },
  '/pay/checkout/session': userCreate(
    'createCheckoutSession',
    'Create a Stripe Checkout session for the signed-in user',
    'CheckoutSessionInput',
    'CheckoutSessionCreated',
  ),
  '/pay/checkout/session/{session_id}': userStatus(
    'getCheckoutSession',
    'checkout session',
    pathParam('session_id', 'Stripe checkout session id'),
    'CheckoutSessionStatus',
  ),
  '/pay/payment/intent': userCreate(
    'createPaymentIntent',
    'Create a payment intent',
    'PaymentIntentInput',
    'PaymentIntentCreated',
  ),
  '/pay/payment/intent/{payment_intent_id}': userStatus(
    'getPaymentIntent',
    'payment intent',
    pathParam('payment_intent_id', 'Stripe payment intent id'),
    'PaymentIntentStatus',
  ),
  '/pay/customer-portal/session': userCreate(
    'createPortalSession',
    'Create a Stripe customer-portal session',
    'PortalSessionInput',
    'PortalSessionCreated',
  ),
  '/pay/customers': {
    post: {
      operationId: 'createCustomer',
      summary: 'Create a Stripe customer tagged with this tenant and project',
      description: `Limited to 1,000 creates an hour per project and environment (429 with Retry-After). ${NOT_CONFIGURED}`,
      security: KEYS,
      parameters: [testEnv],
      requestBody: jsonBody(ref('CustomerInput'), false),
      responses: { '201': jsonResponse('Created', ref('Customer')), ...errorResponses(400, 401, 403, 429, 500, 502) },
    },
    get: {
      operationId: 'listCustomers',
      summary: "This project's customers, newest first",
      description:
        "Read fresh from Stripe. A customer deleted in Stripe, or no longer carrying this project's tags there, is left out, " +
        `so a page may hold fewer than \`limit\`; \`has_more\` tells whether records follow. Limited to 5,000 customer queries an hour per project and environment. ${NOT_CONFIGURED}`,
      security: KEYS,
      parameters: [
        testEnv,
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
        { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
      ],
      responses: {
        '200': jsonResponse('A page of customers', ref('CustomerList')),
        ...errorResponses(400, 401, 403, 429, 500, 502),
      },
    },
  },
  '/pay/customers/{customer_id}': {
    get: {
      operationId: 'getCustomer',
      summary: "One customer of this project (another project's is 404)",
      security: KEYS,
      parameters: [customerId, testEnv],
      responses: {
        '200': jsonResponse('The customer', ref('Customer')),
        ...customerErrors,
      },
    },
    put: {
      operationId: 'updateCustomer',
      summary: 'Change a customer of this project',
      description:
        'Only the fields sent change; metadata is merged key by key and `tenantId`/`projectId` cannot be changed.',
      security: KEYS,
      parameters: [customerId, testEnv],
      requestBody: jsonBody(ref('CustomerInput')),
      responses: {
        '200': jsonResponse('The updated customer', ref('Customer')),
        ...customerErrors,
      },
    },
    delete: {
      operationId: 'deleteCustomer',
      summary: 'Delete a customer of this project in Stripe',
      security: KEYS,
      parameters: [customerId, testEnv],
      responses: {
        '200': jsonResponse('Deleted', ref('DeletedCustomer')),
        ...customerErrors,
      },
    },
  },
  '/pay/account/status': {
    get: {
      operationId: 'getAccountStatus',
      summary: "The project's Stripe account and what keeps it from charging or paying out",
      description:
        'Default environment here is `live`. Without keys for the environment the answer is 200 with ' +
        '`configured: false` (not 403), since that is the status being asked about; a key Stripe rejects is 403.',
      security: KEYS,
      parameters: [environmentParam('live')],
      responses: {
        '200': jsonResponse('Account status', ref('AccountStatus')),
        ...errorResponses(400, 401, 403, 500, 502),
      },
    },
  },
  '/pay/webhooks/{tenant_id}/{project_id}': {
    post: {
      operationId: 'receiveStripeWebhook',
      summary: 'Receive Stripe events for one project and environment',
      description:
        'No key headers: the `Stripe-Signature` header, made with the webhook secret stored by PUT /pay/config, is checked ' +
        'with the Stripe SDK (bad or missing: 400, nothing stored). Each event id is processed once (a replay answers ' +
        '`duplicate: true`). checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid and ' +
        'invoice.payment_failed keep the subscriptions table current; customer.deleted forgets the customer; ' +
        'other event types are acknowledged. ' +
        'Unknown project 404; no webhook secret for the environment 403 PROVIDER_NOT_CONFIGURED.',
      security: [],
      parameters: [pathParam('tenant_id', 'Tenant id'), pathParam('project_id', 'Project id'), testEnv],
      requestBody: jsonBody({ type: 'object', description: 'A Stripe event, exactly as Stripe sent it' }),
      responses: {
        '200': jsonResponse('Accepted', ref('WebhookReceived')),
        ...errorResponses(400, 403, 404, 500, 502),
      },
    },
  },
};

/** RESOLUTIONS: every /pay/... path is also served as /stripe/... */
const stripeAliases = Object.fromEntries(
  Object.entries(payPaths).map(([path, item]) => [
    path.replace(/^\/pay\//, '/stripe/'),
    Object.fromEntries(
      Object.entries(item as Record<string, Record<string, unknown>>).map(([method, op]) => [
        method,
        { ...op, operationId: `${String(op.operationId)}Stripe`, summary: `${String(op.summary)} (alias of ${path})` },
      ]),
    ),
  ]),
);

export const openapi = buildOpenApiDocument({
  title: 'Billing service',
  description:
    "Part of the application backend platform. All paths start with /v1. Payments go through the tenant's own Stripe " +
    'account (keys per project and environment, see PUT /pay/config); every /pay/... path is also served as /stripe/... .',
  paths: {
    ...payPaths,
    ...stripeAliases,
    '/customer/subscription': {
      get: {
        operationId: 'getCustomerSubscription',
        summary: 'The newest active or trialing subscription of a customer email',
        description:
          'Answered from the table kept current by Stripe webhooks; `subscription` is null when there is none.',
        security: KEYS,
        parameters: [
          { name: 'customerEmail', in: 'query', required: true, schema: { type: 'string', format: 'email' } },
          testEnv,
        ],
        responses: {
          '200': jsonResponse(
            'The subscription or null',
            succeeded({ subscription: { oneOf: [ref('Subscription'), { type: 'null' }] } }),
          ),
          ...errorResponses(400, 401, 500),
        },
      },
    },
  },
  schemas: { ...paymentSchemas, ...recordSchemas },
});
