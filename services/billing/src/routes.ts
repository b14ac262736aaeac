import { Router, type Request } from 'express';
import { boundedRawBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys, createRateLimit, requireBearer } from '@platform/tenancy';
import { accountHandlers } from './account/account.router';
import { checkoutHandlers } from './checkout/checkout.router';
import type { BillingConfig } from './config';
import { customerHandlers } from './customers/customers.router';
import { paymentIntentHandlers } from './payment-intents/payment-intents.router';
import { portalHandlers } from './portal/portal.router';
import { environmentKeyOf } from './shared/environment';
import { stripeConfigHandlers } from './stripe/stripe-config.router';
import type { StripeClients } from './stripe/stripe-clients';
import { subscriptionHandlers } from './subscriptions/subscriptions.router';
import { webhookHandlers } from './webhooks/webhooks.router';

/** Counted per project and Stripe environment (SPEC limits). */
const byProjectEnvironment = (req: Request): string | undefined =>
  req.tenant ? `${req.tenant.tenantId}:${req.tenant.projectId}:${environmentKeyOf(req)}` : undefined;

/** The whole route table of the Billing service. */
export function createRoutes(deps: ServiceDeps, config: BillingConfig, clients: StripeClients): Router {
  const { db, logger } = deps;
  const keys = projectKeys(deps);
  // After the keys: the token must be for the same tenant and project, else 401.
  const bearer = requireBearer(deps.jwt.publicKey);
  const customerCreates = createRateLimit({
    name: 'billing-customer-creates',
    windowMs: config.customerLimitWindowMs,
    limit: config.customerCreateLimit,
    key: byProjectEnvironment,
    redis: deps.redis,
    logger: deps.logger,
  });
  const customerQueries = createRateLimit({
    name: 'billing-customer-queries',
    windowMs: config.customerLimitWindowMs,
    limit: config.customerQueryLimit,
    key: byProjectEnvironment,
    redis: deps.redis,
    logger: deps.logger,
  });
  const stripeConfig = stripeConfigHandlers(db, deps.secrets, clients);
  const checkout = checkoutHandlers(db, clients, logger);
  const intents = paymentIntentHandlers(db, clients, logger);
  const portal = portalHandlers(db, clients, logger);
  const customers = customerHandlers(db, clients);
  const account = accountHandlers(clients);
  const webhooks = webhookHandlers(db, clients, deps.directory, logger);
  const subscriptions = subscriptionHandlers(db);

  // "pay" is the payment-provider segment; RESOLUTIONS: every path is served as /stripe/... too.
  const pay = Router();
  pay.put('/config', keys, stripeConfig.put);
  pay.get('/config', keys, stripeConfig.get);
  pay.post('/checkout/session', keys, bearer, checkout.create);
  pay.get('/checkout/session/:id', keys, bearer, checkout.get);
  pay.post('/payment/intent', keys, bearer, intents.create);
  pay.get('/payment/intent/:id', keys, bearer, intents.get);
  pay.post('/customer-portal/session', keys, bearer, portal.create);
  pay.post('/customers', keys, customerCreates, customers.create);
  pay.get('/customers', keys, customerQueries, customers.list);
  pay.get('/customers/:id', keys, customerQueries, customers.get);
  pay.put('/customers/:id', keys, customerQueries, customers.update);
  pay.delete('/customers/:id', keys, customerQueries, customers.remove);
  pay.get('/account/status', keys, account.status);
  pay.get('/subscriptions', keys, subscriptions.list);
  // No keys: Stripe calls this; the signature made with the project's webhook secret is the credential,
  // checked on the bytes as sent before the event is parsed.
  pay.post('/webhooks/:tenant_id/:project_id', boundedRawBody('512kb'), webhooks.receive);

  const router = Router();
  router.use('/pay', pay);
  router.use('/stripe', pay);
  router.get('/customer/subscription', keys, subscriptions.current);
  return router;
}
