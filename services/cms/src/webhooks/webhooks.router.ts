import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import { createWebhookSchema, listDeliveriesQuerySchema } from './webhooks.schemas';
import {
  createWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
  type WebhookLimits,
} from './webhooks.service';

/** Thin handlers: validated input -> service -> JSON. */
export function webhookHandlers(
  { db, relay }: Pick<ServiceDeps, 'db' | 'relay'>,
  limits: WebhookLimits,
): Record<string, RequestHandler> {
  return {
    create: async (req, res) => {
      res.status(201).json(await createWebhook(db, tenantOf(req), parse(createWebhookSchema, req.body), limits));
    },
    list: async (req, res) => {
      res.json(await listWebhooks(db, tenantOf(req)));
    },
    remove: async (req, res) => {
      await removeWebhook(db, tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
    deliveries: async (req, res) => {
      const page = parse(listDeliveriesQuerySchema, req.query);
      res.json(await listDeliveries(db, tenantOf(req), String(req.params.id), page));
    },
    redeliver: async (req, res) => {
      res
        .status(202)
        .json(await redeliver(db, relay, tenantOf(req), String(req.params.id), String(req.params.deliveryId)));
    },
  };
}
