import { randomBytes } from 'node:crypto';
import { sendJson, startHttpStub, type HttpStub } from '@platform/testkit';
import { parseStripeForm } from './stripe-form';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface StripeStub extends HttpStub {
  /** Secret keys the stand-in accepts; any other gets Stripe's 401 authentication_error. */
  keys: Set<string>;
  /** Accepted keys whose calls are answered with headers and then a byte every 100 ms, for ever. */
  trickling: Set<string>;
  objects: Map<string, Obj>;
  account: Obj;
  /** Adds an object (a subscription, a product) as if made in Stripe's dashboard. */
  put(object: Obj): Obj;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

const stripeError = (type: string, message: string, extra: Obj = {}) => ({ error: { type, message, ...extra } });
const missing = (what: string, value: string) =>
  stripeError('invalid_request_error', `No such ${what}: '${value}'`, { code: 'resource_missing', param: 'id' });

/**
 * A local stand-in that speaks the parts of Stripe's REST API the Billing service uses:
 * form-encoded requests, Bearer secret keys, JSON objects and Stripe's error shapes.
 */
export async function startStripeStub(): Promise<StripeStub> {
  const keys = new Set<string>();
  const trickling = new Set<string>();
  const objects = new Map<string, Obj>();
  const account: Obj = {
    id: 'acct_stub',
    object: 'account',
    email: 'owner@example.com',
    country: 'US',
    default_currency: 'usd',
    charges_enabled: true,
    payouts_enabled: false,
    details_submitted: true,
    type: 'standard',
    requirements: { currently_due: ['external_account'], eventually_due: [], past_due: [], disabled_reason: null },
  };
  const put = (object: Obj) => {
    objects.set(object.id, object);
    return object;
  };
  const find = (prefix: string, objectId: string) => (objectId.startsWith(prefix) ? objects.get(objectId) : undefined);

  /**
   * GET /v1/customers: live customers newest first (ties: the later created first), `created`
   * as an exact time or a gt/gte/lt/lte range, pages of `limit` (1..100, default 10) after the
   * `starting_after` id. Every key sees one account, as if all projects shared it.
   */
  const listCustomers = (query: Obj, reply: (status: number, body: Obj) => void) => {
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return reply(
        400,
        stripeError('invalid_request_error', 'This value must be greater than or equal to 1 and at most 100.', {
          param: 'limit',
        }),
      );
    }
    const created = query.created as Obj | string | undefined;
    const range: Obj = typeof created === 'string' ? { gte: created, lte: created } : (created ?? {});
    const inRange = (time: number) =>
      (range.gt === undefined || time > Number(range.gt)) &&
      (range.gte === undefined || time >= Number(range.gte)) &&
      (range.lt === undefined || time < Number(range.lt)) &&
      (range.lte === undefined || time <= Number(range.lte));
    const ordered = [...objects.values()]
      .filter((o) => o.object === 'customer' && !o.deleted)
      .reverse()
      .sort((a, b) => b.created - a.created);
    let cursor = -1;
    if (query.starting_after !== undefined) {
      cursor = ordered.findIndex((o) => o.id === query.starting_after);
      if (cursor < 0) {
        return reply(
          400,
          stripeError('invalid_request_error', `No such customer: '${String(query.starting_after)}'`, {
            code: 'resource_missing',
            param: 'starting_after',
          }),
        );
      }
    }
    const after = ordered.slice(cursor + 1).filter((o) => inRange(o.created));
    const data = after.slice(0, limit);
    return reply(200, { object: 'list', url: '/v1/customers', has_more: after.length > limit, data });
  };

  const stub = await startHttpStub((req, res) => {
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!keys.has(key)) {
      const masked = `${key.slice(0, 8)}****${key.slice(-4)}`;
      return sendJson(res, 401, stripeError('authentication_error', `Invalid API Key provided: ${masked}`));
    }
    if (trickling.has(key)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"');
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (key.includes('apierror')) return sendJson(res, 500, stripeError('api_error', 'Something went wrong on Stripe'));
    const url = new URL(req.path, 'http://stub');
    const form = parseStripeForm(req.rawBody);
    const [, , resource, objectId, ...rest] = url.pathname.split('/');
    const route = `${req.method} /${resource}${objectId ? '/:id' : ''}${rest.length ? `/${rest.join('/')}` : ''}`;
    const reply = (status: number, body: Obj) => sendJson(res, status, body, { 'request-id': id('req') });

    switch (route) {
      case 'POST /customers':
        return reply(
          200,
          put({
            id: id('cus'),
            object: 'customer',
            email: form.email ?? null,
            name: form.name ?? null,
            description: form.description ?? null,
            phone: form.phone ?? null,
            metadata: form.metadata ?? {},
            created: now(),
            livemode: false,
          }),
        );
      case 'GET /customers':
        return listCustomers(parseStripeForm(url.search.slice(1)), reply);
      case 'GET /customers/:id': {
        const customer = find('cus_', objectId);
        return customer ? reply(200, customer) : reply(404, missing('customer', objectId));
      }
      case 'POST /customers/:id': {
        const customer = find('cus_', objectId);
        if (!customer || customer.deleted) return reply(404, missing('customer', objectId));
        for (const field of ['email', 'name', 'description', 'phone'])
          if (form[field] !== undefined) customer[field] = form[field];
        for (const [k, v] of Object.entries((form.metadata ?? {}) as Obj)) {
          if (v === '') delete customer.metadata[k];
          else customer.metadata[k] = v;
        }
        return reply(200, customer);
      }
      case 'DELETE /customers/:id': {
        if (!find('cus_', objectId)) return reply(404, missing('customer', objectId));
        return reply(200, put({ id: objectId, object: 'customer', deleted: true }));
      }
      case 'POST /checkout/:id': {
        // /v1/checkout/sessions
        const items = (form.line_items ?? []) as Obj[];
        const bad = items.findIndex((item) => !String(item.price).startsWith('price_'));
        if (bad >= 0) {
          return reply(
            400,
            stripeError('invalid_request_error', `No such price: '${items[bad].price}'`, {
              code: 'resource_missing',
              param: `line_items[${bad}][price]`,
            }),
          );
        }
        const sessionId = id('cs_test');
        return reply(
          200,
          put({
            id: sessionId,
            object: 'checkout.session',
            url: `https://checkout.stripe.com/c/pay/${sessionId}`,
            customer: form.customer ?? null,
            mode: form.mode,
            status: 'open',
            payment_status: 'unpaid',
            metadata: form.metadata ?? {},
            success_url: form.success_url,
            line_items_sent: items,
            allow_promotion_codes: form.allow_promotion_codes,
            billing_address_collection: form.billing_address_collection,
            subscription_data: form.subscription_data,
          }),
        );
      }
      case 'POST /payment_intents':
        return reply(
          200,
          put(
            (() => {
              const intentId = id('pi');
              return {
                id: intentId,
                object: 'payment_intent',
                amount: Number(form.amount),
                currency: form.currency,
                client_secret: `${intentId}_secret_${randomBytes(6).toString('hex')}`,
                status: 'requires_payment_method',
                customer: form.customer ?? null,
                metadata: form.metadata ?? {},
                description: form.description ?? null,
                setup_future_usage: form.setup_future_usage ?? null,
                payment_method_types: form.payment_method_types ?? ['card'],
              };
            })(),
          ),
        );
      case 'GET /payment_intents/:id': {
        const intent = find('pi_', objectId);
        return intent ? reply(200, intent) : reply(404, missing('payment_intent', objectId));
      }
      case 'POST /billing_portal/:id': {
        // /v1/billing_portal/sessions
        if (!find('cus_', String(form.customer))) return reply(400, missing('customer', String(form.customer)));
        const portalId = id('bps');
        return reply(
          200,
          put({
            id: portalId,
            object: 'billing_portal.session',
            customer: form.customer,
            return_url: form.return_url,
            url: `https://billing.stripe.com/p/session/${portalId}`,
          }),
        );
      }
      case 'GET /account':
        return reply(200, account);
      case 'GET /subscriptions/:id': {
        const sub = find('sub_', objectId);
        return sub ? reply(200, sub) : reply(404, missing('subscription', objectId));
      }
      case 'GET /products/:id': {
        const product = find('prod_', objectId);
        return product ? reply(200, product) : reply(404, missing('product', objectId));
      }
      default:
        if (req.method === 'GET' && resource === 'checkout') {
          const session = find('cs_', rest[0] ?? '');
          return session ? reply(200, session) : reply(404, missing('checkout.session', rest[0] ?? ''));
        }
        return reply(
          404,
          stripeError('invalid_request_error', `Unrecognized request URL (${req.method}: ${url.pathname})`),
        );
    }
  });
  return Object.assign(stub, { keys, trickling, objects, account, put });
}
